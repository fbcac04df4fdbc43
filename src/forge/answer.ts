/** What a success answer holds: its JSON value, or why it cannot be used. */
export type Answer = { usable: true; data: unknown } | { usable: false; problem: string };

/**
 * Reads the body of a 2xx answer. Every operation forgeplan calls answers JSON, so anything else —
 * an HTML page from a proxy, a body that does not parse, a read with no body at all — cannot be
 * taken as data (and least of all as "absent"): it fails the request. 204 and 205 carry no body by
 * definition (RFC 9110 §15.3.5–6); a write may answer with none, and what a write must return is
 * checked by the resource that sent it. The problem reads after "GET … answered 200 with ".
 */
export function readAnswer(
  method: string,
  status: number,
  contentType: string | undefined,
  raw: Uint8Array | string | undefined,
): Answer {
  if (status === 204 || status === 205) return { usable: true, data: undefined };
  const text =
    raw === undefined
      ? ""
      : typeof raw === "string"
        ? raw
        : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("utf8");
  if (text.trim() === "") {
    return method === "GET"
      ? { usable: false, problem: "no body" }
      : { usable: true, data: undefined };
  }
  const type = mediaType(contentType);
  if (!isJson(type)) {
    return { usable: false, problem: `${type === "" ? "no content type" : type}, not JSON` };
  }
  try {
    return { usable: true, data: JSON.parse(text) as unknown };
  } catch {
    return { usable: false, problem: `${type} that does not parse as JSON` };
  }
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** application/json, and structured-syntax types such as application/vnd.github+json (RFC 6839). */
function isJson(type: string): boolean {
  return type === "application/json" || /^application\/[^/]+\+json$/.test(type);
}
