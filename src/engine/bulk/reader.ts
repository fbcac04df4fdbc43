import type { PageShape } from "../../forge/client.js";
import {
  type ReadResult,
  ResourceReader,
  type Shape,
  shapedAnswer,
  shapedList,
} from "../../resources/context.js";
import {
  getKey,
  listKey,
  type Query,
  type RestAnswer,
  type RestAnswers,
} from "../../resources/graphql-read.js";

/**
 * The reader of a target whose repositories are read in bulk: a read the kinds' GraphQL answers
 * stand for is answered from them, checked against the read's shape as any answer is; every other
 * read goes to the reader it wraps (the target's, over REST). It is the target's one reader for the
 * plan, so what is read once per owner (a ruleset's team and app names) is still read once.
 */
export class BulkReader extends ResourceReader {
  readonly #inner: ResourceReader;

  constructor(inner: ResourceReader) {
    super(inner.target, inner.client);
    this.#inner = inner;
  }

  readonly #answers = new Map<string, RestAnswer>();
  /** Repositories GraphQL could not resolve: REST answers every read under them 404 "Not Found". */
  readonly #missing = new Set<string>();

  /** Answers reads with `answers` until `forget`. */
  hold(answers: RestAnswers): void {
    for (const [key, answer] of answers.byRequest) this.#answers.set(key, answer);
  }

  forget(answers: RestAnswers): void {
    for (const [key, answer] of answers.byRequest) {
      if (this.#answers.get(key) === answer) this.#answers.delete(key);
    }
  }

  /** `/repos/{owner}/{repo}` of a repository that is not there (or hidden from the credential). */
  holdMissing(repository: string): void {
    this.#missing.add(repository);
  }

  forgetMissing(repository: string): void {
    this.#missing.delete(repository);
  }

  #missingAt(path: string): boolean {
    const match = /^\/repos\/[^/]+\/[^/]+/.exec(path);
    return match !== null && this.#missing.has(match[0]);
  }

  override getOrAbsent<T>(path: string, shape: Shape<T>, query?: Query): Promise<ReadResult<T>> {
    const answer = this.#answers.get(getKey(path, query));
    if (answer?.kind === "found") return Promise.resolve(shapedAnswer(path, answer.body, shape));
    if (answer?.kind === "absent")
      return Promise.resolve({ kind: "absent", detail: answer.detail });
    if (this.#missingAt(path)) return Promise.resolve({ kind: "absent", detail: "Not Found" });
    return this.#inner.getOrAbsent(path, shape, query);
  }

  override list<T>(
    path: string,
    query: Query | undefined,
    item: Shape<T>,
    pages: PageShape = {},
  ): Promise<ReadResult<T[]>> {
    const answer = this.#answers.get(listKey(path, query));
    if (answer?.kind === "listed") return Promise.resolve(shapedList(path, answer.items, item));
    if (this.#missingAt(path)) return Promise.resolve({ kind: "absent", detail: "Not Found" });
    return this.#inner.list(path, query, item, pages);
  }
}
