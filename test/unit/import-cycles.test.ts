import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const FOLDERS = ['src', 'rest-shim', 'jobs'];

/** Every TypeScript file under the service's folders. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The project files a file imports. Type-only imports count (a circle of types is a circle too),
 * but for one entity's `import type` of another: the two sides of a relation, where MikroORM
 * resolves the other side by name.
 */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const typeOnlyEntities = new Set([...text.matchAll(/^import type [^;]+ from '([^']+\.entity)';$/gm)].map((m) => m[1]));
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((name) => !(file.endsWith('.entity.ts') && typeOnlyEntities.has(name)))
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name))
    .flatMap((base) => [`${base}.ts`, join(base, 'index.ts')].filter((candidate) => existsSync(candidate)).slice(0, 1));
}

/** The strongly connected components of more than one file (Tarjan's algorithm). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.map((f) => relative(ROOT, f)).sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('imports', () => {
  it('make no circle: every module can be read before the ones that import it', () => {
    const files = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)));
    const graph = new Map(files.map((file) => [file, importsOf(file)]));
    expect(graph.size).toBeGreaterThan(150);
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });
});
