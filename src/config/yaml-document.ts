import { type Node, type ParsedNode, isAlias, isMap, isScalar, isSeq } from "yaml";
import type { TreeNode } from "./yaml-tree.js";

/**
 * The YAML library's composed document as the loader's tree (yaml-tree.ts). Recursive, which the
 * caller bounds: a document reaches here only once its nesting is checked (LIMITS.maxDepth).
 */
export function treeFromDocument(node: ParsedNode | Node | null | undefined): TreeNode | null {
  if (node === null || node === undefined) return null;
  const offset = node.range?.[0] ?? 0;
  if (isAlias(node)) return { kind: "alias", offset, name: node.source };
  const properties = { offset, anchor: node.anchor, tag: node.tag };
  if (isScalar(node)) {
    const plain = node.type === "PLAIN" && node.source !== undefined;
    return {
      kind: "scalar",
      ...properties,
      value: node.value,
      text: plain ? (node.source as string) : String(node.value),
      plain,
    };
  }
  if (isSeq(node)) {
    return {
      kind: "seq",
      ...properties,
      items: node.items.map((item) => treeFromDocument(item as Node)),
    };
  }
  if (isMap(node)) {
    return {
      kind: "map",
      ...properties,
      pairs: node.items.map((pair) => ({
        key: treeFromDocument(pair.key as Node),
        value: treeFromDocument(pair.value as Node),
      })),
    };
  }
  throw new Error(`the YAML library composed a node of no known kind at offset ${offset}`);
}
