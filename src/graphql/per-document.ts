import type { DocumentNode } from 'graphql';

/**
 * Values worked out once per parsed query and key, at most `maxPerDocument` keys a query. Apollo
 * hands every request that sends a query it has seen the same parsed document, and a document it
 * drops from its cache takes its values with it (the map is weak).
 */
export function perDocument<K, V>(maxPerDocument: number): (document: DocumentNode, key: K, make: () => V) => V {
  const byDocument = new WeakMap<DocumentNode, Map<K, V>>();
  return (document, key, make) => {
    let values = byDocument.get(document);
    if (values?.has(key)) return values.get(key)!;
    const value = make();
    if (!values) byDocument.set(document, (values = new Map()));
    if (values.size >= maxPerDocument) values.clear();
    values.set(key, value);
    return value;
  };
}
