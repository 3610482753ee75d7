import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { MAX_PACK_COUNT, MAX_UNIT_QUANTITY } from '../../src/domains/products/product.service';
import { created, paginated } from '../envelope';
import { presentProduct, ProductBody } from '../presenters/product.presenter';
import { createdResponse, listResponse, Nullable, listQuery, StatusFilter } from '../schemas';

const ProductListQuery = listQuery(
  {
    status: StatusFilter,
  },
  { search: 'Matches the product name' },
);

const VariantInput = Type.Object({
  variant_name: Type.String({ minLength: 1, maxLength: 200 }),
  item_sku_code: Type.String({ minLength: 1, maxLength: 64 }),
  mrp: Type.Number({ minimum: 0 }),
  sp: Type.Number({ minimum: 0 }),
  variant_size: Type.Optional(Type.String({ maxLength: 50 })),
  variant_quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PACK_COUNT })),
  container_quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PACK_COUNT })),
  unit_quantity: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: MAX_UNIT_QUANTITY,
      description: "How much of the product class's unit one piece holds (e.g. 0.5 for 500 ml in a litre class); at most 3 decimals, default 1",
    }),
  ),
});

const CreateProductBody = Type.Object({
  product_name: Type.String({ minLength: 1, maxLength: 200 }),
  product_class_id: Type.Integer({ minimum: 1 }),
  product_hsn: Type.Optional(Type.String({ maxLength: 8 })),
  product_color_code: Type.Optional(Type.String({ maxLength: 7 })),
  product_description: Type.Optional(Type.String({ maxLength: 5000 })),
  product_image: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
  variants: Type.Optional(Type.Array(VariantInput, { maxItems: 100 })),
});

/** GET/POST /products. */
export const productRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/products',
    {
      schema: {
        tags: ['Products'],
        summary: 'List products with class and variants',
        querystring: ProductListQuery,
        response: listResponse(ProductBody),
      },
    },
    async (request) => {
      const { search, status } = request.query;
      const page = await app.services.products.list(request.ctx, { search, status }, request.query);
      return paginated(page, presentProduct);
    },
  );

  app.post(
    '/products',
    {
      schema: {
        tags: ['Products'],
        summary: 'Create a product with variants (admins only)',
        body: CreateProductBody,
        response: createdResponse(ProductBody),
      },
    },
    async (request, reply) => {
      const b = request.body;
      const product = await app.services.products.create(request.ctx, {
        productName: b.product_name,
        productClassId: b.product_class_id,
        productHsn: b.product_hsn,
        productColorCode: b.product_color_code,
        productDescription: b.product_description,
        productImage: b.product_image,
        variants: b.variants?.map((v) => ({
          variantName: v.variant_name,
          itemSkuCode: v.item_sku_code,
          mrp: v.mrp,
          sp: v.sp,
          variantSize: v.variant_size,
          variantQuantity: v.variant_quantity,
          containerQuantity: v.container_quantity,
          unitQuantity: v.unit_quantity,
        })),
      });
      return reply.code(201).send(created('Product created', presentProduct(product)));
    },
  );
};
