import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { Secret } from "../../src/core/secret.js";
import { type ClientEvent, ForgeClient, type ForgeClientOptions } from "../../src/forge/client.js";
import { FakeClock } from "../forge/fake-clock.js";

/** A request as the hostile server saw it. */
export interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

export type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface Hostile {
  url: string;
  seen: Seen[];
}

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

/** A loopback server on port 0 that answers each request as `route` says; closed after each test. */
export async function hostile(route: Route): Promise<Hostile> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      seen.push({
        method: req.method ?? "GET",
        url: req.url ?? "/",
        authorization: req.headers.authorization,
        body,
      });
      route(req, res, body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** Answers with a status, headers and a body as given (a string is sent as it is). */
export function answer(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: unknown = undefined,
): void {
  res.writeHead(status, headers);
  res.end(body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body));
}

export const json = { "content-type": "application/json; charset=utf-8" };

/** A client of the hostile server on virtual time: waits and back-offs cost no real time. */
export function clientOf(
  url: string,
  options: Partial<ForgeClientOptions> = {},
): { client: ForgeClient; clock: FakeClock; events: ClientEvent[] } {
  const clock = new FakeClock();
  const events: ClientEvent[] = [];
  const client = new ForgeClient({
    baseUrl: url,
    kind: "repository",
    token: new Secret("ghp_hostiletesttoken", "GITHUB_TOKEN"),
    clock,
    writeIntervalMs: 0,
    retries: { max: 2, baseMs: 10, capMs: 100 },
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { client, clock, events };
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    (value) => ({ resolved: value }),
    (error: unknown) => ({ error }),
  );
  if ("resolved" in outcome) {
    throw new Error(`expected a failure, got ${JSON.stringify(outcome.resolved)?.slice(0, 200)}`);
  }
  if (!(outcome.error instanceof Error)) throw new Error(`not an Error: ${String(outcome.error)}`);
  return outcome.error;
}
