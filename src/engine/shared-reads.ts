import type { PageShape } from "../forge/client.js";
import { type ReadResult, ResourceReader, type Shape } from "../resources/context.js";

type Query = Record<string, string | number>;

/**
 * A reader that reads each path once: planning the same resources against two desired states (what
 * a change asks for and what was asked before it) compares both with one reading of the service.
 * Answers are kept by path, query and the shape they were checked against.
 */
export class SharedReader extends ResourceReader {
  readonly #reads = new Map<unknown, Map<string, Promise<ReadResult<unknown>>>>();

  #once<R extends ReadResult<unknown>>(
    shape: Shape<unknown>,
    key: string,
    read: () => Promise<R>,
  ): Promise<R> {
    let byKey = this.#reads.get(shape.schema);
    if (byKey === undefined) {
      byKey = new Map();
      this.#reads.set(shape.schema, byKey);
    }
    let found = byKey.get(key) as Promise<R> | undefined;
    if (found === undefined) {
      found = read();
      byKey.set(key, found);
    }
    return found;
  }

  override getOrAbsent<T>(path: string, shape: Shape<T>, query?: Query): Promise<ReadResult<T>> {
    return this.#once(shape, `get ${path} ${JSON.stringify(query ?? {})}`, () =>
      super.getOrAbsent(path, shape, query),
    );
  }

  override list<T>(
    path: string,
    query: Query | undefined,
    item: Shape<T>,
    pages: PageShape = {},
  ): Promise<ReadResult<T[]>> {
    return this.#once(item, `list ${path} ${JSON.stringify([query ?? {}, pages])}`, () =>
      super.list(path, query, item, pages),
    );
  }
}

/** One shared reader per target, over the same clients. */
export function shareReads(
  readers: ReadonlyMap<string, ResourceReader>,
): Map<string, SharedReader> {
  return new Map(
    [...readers].map(([target, reader]) => [target, new SharedReader(target, reader.client)]),
  );
}
