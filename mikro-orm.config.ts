import 'reflect-metadata';
import { ormOptions } from './src/db/orm-options';

/** Configuration for the MikroORM CLI (migration:create and friends); needs DATABASE_URL. */
export default ormOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sd_dev');
