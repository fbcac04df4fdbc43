import type { PageShape } from "../../forge/client.js";
import {
  type OnePlanReads,
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
  /** Reads answered from the organization's side, by key: what reads them, made once asked. */
  readonly #deferred = new Map<string, () => Promise<void>>();
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

  /**
   * Answers the reads of these keys with what `read` returns, read when the first of them is asked
   * for and held for the rest of the plan; a key it leaves unanswered is read as any other.
   */
  defer(keys: Iterable<string>, read: () => Promise<RestAnswers>): void {
    let loaded: Promise<void> | undefined;
    const load = () => (loaded ??= read().then((answers) => this.hold(answers)));
    for (const key of keys) this.#deferred.set(key, load);
  }

  async #settle(key: string): Promise<void> {
    const load = this.#deferred.get(key);
    if (load === undefined) return;
    this.#deferred.delete(key);
    await load();
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

  override list<T>(
    path: string,
    query: Query | undefined,
    item: Shape<T>,
    pages: PageShape = {},
  ): Promise<ReadResult<T[]>> {
    // A read outside a kind's plan (onePlan) cannot be planned again: no partial answer for it.
    return this.answerList(path, query, item, pages, EXACT);
  }

  /** One kind's plan's reads: partial answers noted, or (`exact`) passed over to REST. */
  override onePlan(): OnePlanReads {
    let partial = false;
    const noted: Partiality = { skip: false, served: () => (partial = true) };
    return {
      reader: new OnePlanReader(this, noted),
      partial: () => partial,
      exact: new OnePlanReader(this, EXACT),
    };
  }

  override async getOrAbsent<T>(
    path: string,
    shape: Shape<T>,
    query?: Query,
  ): Promise<ReadResult<T>> {
    const key = getKey(path, query);
    await this.#settle(key);
    const answer = this.#answers.get(key);
    if (answer?.kind === "found") return shapedAnswer(path, answer.body, shape);
    if (answer?.kind === "absent") return { kind: "absent", detail: answer.detail };
    if (this.#missingAt(path)) return { kind: "absent", detail: "Not Found" };
    return this.#inner.getOrAbsent(path, shape, query);
  }

  /** A listing's answer; a partial one only as `how` takes it. */
  async answerList<T>(
    path: string,
    query: Query | undefined,
    item: Shape<T>,
    pages: PageShape,
    how: Partiality,
  ): Promise<ReadResult<T[]>> {
    const key = listKey(path, query);
    await this.#settle(key);
    const answer = this.#answers.get(key);
    if (answer?.kind === "listed" && !(answer.partial === true && how.skip)) {
      if (answer.partial === true) how.served();
      return shapedList(path, answer.items, item);
    }
    if (this.#missingAt(path)) return { kind: "absent", detail: "Not Found" };
    return this.#inner.list(path, query, item, pages);
  }
}

/** How one plan's reads take partial answers: skipped, or taken and noted. */
interface Partiality {
  skip: boolean;
  served(): void;
}

const EXACT: Partiality = { skip: true, served: () => undefined };

/** The target's BulkReader as one kind's plan reads it (`BulkReader.onePlan`). */
class OnePlanReader extends ResourceReader {
  constructor(
    private readonly bulk: BulkReader,
    private readonly how: Partiality,
  ) {
    super(bulk.target, bulk.client);
  }

  override getOrAbsent<T>(path: string, shape: Shape<T>, query?: Query): Promise<ReadResult<T>> {
    // Partial answers are listings only.
    return this.bulk.getOrAbsent(path, shape, query);
  }

  override list<T>(
    path: string,
    query: Query | undefined,
    item: Shape<T>,
    pages: PageShape = {},
  ): Promise<ReadResult<T[]>> {
    return this.bulk.answerList(path, query, item, pages, this.how);
  }
}
