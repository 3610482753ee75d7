import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { MAX_PACK_COUNT, MAX_UNIT_QUANTITY } from '../../src/domains/products/product.service';
import type { VariantInput as VariantFields } from '../../src/domains/products/product.service';
import { changed, created, ok, paginated } from '../envelope';
import { exportRoute } from '../export-route';
import { presentProduct, presentVariant, ProductBody, VariantBody } from '../presenters/product.presenter';
import { changedResponse, createdResponse, IdParams, listResponse, Nullable, listQuery, okResponse, pageRequestOf, StatusFilter } from '../schemas';
import { PRODUCT_SORT } from '../../src/domains/products/product.service';
import { productsExport } from '../../src/domains/products/products.export';

const ProductListQuery = listQuery(
  {
    status: StatusFilter,
    product_class_id: Type.Optional(Type.Integer({ minimum: 1, description: 'Only products of this class (one of the workspace\'s)' })),
  },
  { sort: PRODUCT_SORT, search: 'Matches the product name' },
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

const UpdateProductBody = Type.Object({
  product_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  product_class_id: Type.Optional(Type.Integer({ minimum: 1 })),
  product_hsn: Type.Optional(Type.String({ maxLength: 8 })),
  product_color_code: Type.Optional(Type.String({ maxLength: 7 })),
  product_description: Type.Optional(Type.String({ maxLength: 5000 })),
  product_image: Type.Optional(Nullable(Type.String({ maxLength: 2048, description: 'null removes the image' }))),
  status: StatusFilter,
});

const UpdateVariantBody = Type.Object({
  ...Type.Partial(VariantInput).properties,
  status: StatusFilter,
});

const VariantParams = Type.Object({
  id: Type.Integer({ minimum: 1, description: 'Product id' }),
  variantId: Type.Integer({ minimum: 1, description: 'Variant id' }),
});

type VariantBodyIn = Partial<{
  variant_name: string;
  item_sku_code: string;
  mrp: number;
  sp: number;
  variant_size: string;
  variant_quantity: number;
  container_quantity: number;
  unit_quantity: number;
}>;

/** A variant body in the services' names. */
function variantInput(v: VariantBodyIn): Partial<VariantFields> {
  return {
    variantName: v.variant_name,
    itemSkuCode: v.item_sku_code,
    mrp: v.mrp,
    sp: v.sp,
    variantSize: v.variant_size,
    variantQuantity: v.variant_quantity,
    containerQuantity: v.container_quantity,
    unitQuantity: v.unit_quantity,
  };
}

/** GET/POST /products, GET/PUT /products/{id}, POST /products/{id}/variants, PUT /products/{id}/variants/{variantId}. */
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
      const { search, status, product_class_id: productClassId } = request.query;
      const page = await app.services.products.list(request.ctx, { search, status, productClassId }, pageRequestOf(request.query));
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
        variants: b.variants?.map((v) => variantInput(v) as VariantFields),
      });
      return reply.code(201).send(created('Product created', presentProduct(product)));
    },
  );

  app.get(
    '/products/:id',
    { schema: { tags: ['Products'], summary: 'A product with class and variants', params: IdParams, response: okResponse(ProductBody) } },
    async (request) => ok(presentProduct(await app.services.products.get(request.ctx, request.params.id))),
  );

  app.put(
    '/products/:id',
    {
      schema: {
        tags: ['Products'],
        summary: 'Change a product (admins only); omitted fields stay, status 0 stops new orders for it',
        params: IdParams,
        body: UpdateProductBody,
        response: changedResponse(ProductBody),
      },
    },
    async (request) => {
      const b = request.body;
      const product = await app.services.products.update(request.ctx, request.params.id, {
        productName: b.product_name,
        productClassId: b.product_class_id,
        productHsn: b.product_hsn,
        productColorCode: b.product_color_code,
        productDescription: b.product_description,
        productImage: b.product_image,
        status: b.status,
      });
      return changed('Product updated', presentProduct(product));
    },
  );

  app.post(
    '/products/:id/variants',
    {
      schema: {
        tags: ['Products'],
        summary: 'Add a variant to a product (admins only)',
        params: IdParams,
        body: VariantInput,
        response: createdResponse(VariantBody),
      },
    },
    async (request, reply) => {
      const variant = await app.services.products.addVariant(request.ctx, request.params.id, variantInput(request.body) as VariantFields);
      return reply.code(201).send(created('Variant created', presentVariant(variant)));
    },
  );

  app.put(
    '/products/:id/variants/:variantId',
    {
      schema: {
        tags: ['Products'],
        summary: "Change a product's variant (admins only); omitted fields stay, a new price applies to new orders only",
        params: VariantParams,
        body: UpdateVariantBody,
        response: changedResponse(VariantBody),
      },
    },
    async (request) => {
      const { id, variantId } = request.params;
      const variant = await app.services.products.updateVariant(request.ctx, id, variantId, { ...variantInput(request.body), status: request.body.status });
      return changed('Variant updated', presentVariant(variant));
    },
  );

  exportRoute(app, {
    source: productsExport,
    summary: 'Products × variants with their prices as XLSX, PDF or CSV (administrators and API keys)',
    query: {
      status: StatusFilter,
      product_class_id: Type.Optional(Type.Integer({ minimum: 1, description: "Only products of this class (one of the workspace's)" })),
    },
    filters: (q) => ({ productStatus: q.status, productClassId: q.product_class_id }),
  });
};
