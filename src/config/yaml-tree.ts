import { Document, type ScalarTag, isScalar } from "yaml";

/**
 * A YAML document's nodes as the loader reads them: what each parser gives (the YAML library's
 * document, yaml-document.ts; js-yaml's event stream, yaml-events.ts) is turned into this, so one
 * converter and one locator serve both. Offsets are the YAML library's: where the node's own text
 * starts (a quoted scalar's quote, a block scalar's `|` or `>`, an alias's `*`), after its anchor
 * and tag.
 */
export type TreeNode = TreeScalar | TreeSeq | TreeMap | TreeAlias;

interface Properties {
  offset: number;
  anchor: string | undefined;
  /** An explicit tag, resolved (`!!str` is `tag:yaml.org,2002:str`); undefined when none is written. */
  tag: string | undefined;
}

export interface TreeScalar extends Properties {
  kind: "scalar";
  value: unknown;
  /** How the scalar reads as a key: a plain scalar's text as written (`1.10`, not 1.1), else its value. */
  text: string;
  plain: boolean;
}

export interface TreeSeq extends Properties {
  kind: "seq";
  items: Array<TreeNode | null>;
}

export interface TreePair {
  key: TreeNode | null;
  value: TreeNode | null;
}

export interface TreeMap extends Properties {
  kind: "map";
  pairs: TreePair[];
}

export interface TreeAlias {
  kind: "alias";
  offset: number;
  name: string;
}

/**
 * The YAML library's own core-schema tags and options, as its composer uses them for a document
 * of version 1.2, so a plain scalar read from js-yaml's events resolves to exactly the value the
 * library would give it (`0o17` is 15, `.inf` Infinity, `~` null, `True` true, `0b1` a string).
 */
const core = new Document(undefined, { version: "1.2", uniqueKeys: false });
const defaultTags = core.schema.tags.filter(
  (tag): tag is ScalarTag & { test: RegExp } => !tag.collection && tag.test !== undefined,
);

/** What resolvePlain throws where the library would report the scalar as an error. */
export class UnresolvedScalar extends Error {}

/**
 * The first characters a scalar the core schema's tags resolve can start with (`~`, null, true,
 * false, digits, signs, `.inf`; the empty null is resolved before); any other plain scalar is a
 * string, without trying eight patterns on it. test/unit/yaml-events.test.ts holds this to the
 * library's reading.
 */
const MAY_RESOLVE = /^[~nNtTfF0-9+.-]/;

/** A plain scalar's value, resolved as the YAML library's composer does (findScalarTagByTest). */
export function resolvePlain(source: string, atKey: boolean): unknown {
  // The core schema's null, without the Scalar node its tag makes: an empty value is common, and
  // a file of 400,000 empty entries made as many nodes.
  if (source === "") return null;
  if (!MAY_RESOLVE.test(source)) return source;
  const refuse = (message: string) => {
    throw new UnresolvedScalar(message);
  };
  for (const tag of defaultTags) {
    if ((tag.default === true || (atKey && tag.default === "key")) && tag.test.test(source)) {
      const resolved: unknown = tag.resolve(source, refuse, core.options);
      return isScalar(resolved) ? resolved.value : resolved;
    }
  }
  return source;
}
