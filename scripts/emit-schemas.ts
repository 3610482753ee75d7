import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { renderSchemas, SCHEMA_FILES } from './schemas';

/** `npm run schema:emit`: rewrites schema/schema.graphql and schema/openapi.json from the code. */
renderSchemas()
  .then(({ graphql, openapi }) => {
    writeFileSync(SCHEMA_FILES.graphql, graphql);
    writeFileSync(SCHEMA_FILES.openapi, openapi);
    console.log(`Wrote ${SCHEMA_FILES.graphql} and ${SCHEMA_FILES.openapi}`);
    process.exit(0);
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
