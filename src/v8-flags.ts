import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings of the service's processes, set as main.ts loads, before any code has run hot.
 *
 * No allocation-site pretenuring. V8 allocates straight into the old generation the objects of an
 * allocation site whose young objects it saw surviving a scavenge. Exports read rows a batch at a
 * time, and a scavenge that comes while a batch is alive sees all of them survive: once idle time
 * had let V8 settle on that (any export after the service sat idle a while), the rows and cells
 * of every later export went to the old generation and lay there until a full collection, and a
 * large XLSX's peak memory nearly doubled (BENCHMARKS.md, "Figures behind the code"). The service's
 * long-lived objects are made at start-up, and are promoted by the first collections all the same.
 */
setFlagsFromString('--no-allocation-site-pretenuring');
