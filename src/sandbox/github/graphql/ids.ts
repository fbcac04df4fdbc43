/**
 * Global node ids (`id` of every Node, the argument of `node(id:)`). GitHub's are opaque strings; the
 * sandbox's are base64url of `Type:key`, the form its REST answers' `node_id` take.
 */

export function nodeId(type: string, key: string | number): string {
  return Buffer.from(`${type}:${key}`).toString("base64url");
}

export function parseNodeId(id: string): { type: string; key: string } | undefined {
  const text = Buffer.from(id, "base64url").toString("utf8");
  const colon = text.indexOf(":");
  if (colon <= 0 || nodeId(text.slice(0, colon), text.slice(colon + 1)) !== id) return undefined;
  return { type: text.slice(0, colon), key: text.slice(colon + 1) };
}
