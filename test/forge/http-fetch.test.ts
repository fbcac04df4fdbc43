import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpFetch, ExchangeRefused } from "../../src/forge/http-fetch.js";

type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;
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

async function serve(route: Route): Promise<string> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => route(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const echo: Route = (req, res, body) => {
  res.setHeader("content-type", "application/json");
  res.end(
    JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization, body }),
  );
};

describe("the fetch octokit is given", () => {
  const httpFetch = createHttpFetch(4);

  it("sends method, headers and body, and reads status, headers and JSON", async () => {
    const url = await serve(echo);
    const response = await httpFetch(`${url}/x?a=1`, {
      method: "PATCH",
      headers: { authorization: "Bearer t" },
      body: '{"k":1}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json");
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "application/json",
    });
    expect(await response.json()).toEqual({
      method: "PATCH",
      url: "/x?a=1",
      auth: "Bearer t",
      body: '{"k":1}',
    });
  });

  it("says an answer is in as its last byte is read, before handing it on, and once a redirect is followed", async () => {
    const url = await serve((req, res, body) =>
      req.url === "/old" ? res.writeHead(301, { location: "/x" }).end() : echo(req, res, body),
    );
    const seen: string[] = [];
    const answered = () => seen.push("answered");
    const response = await httpFetch(`${url}/x`, {}, answered).then((answer) => {
      seen.push("handed on");
      return answer;
    });
    expect(response.status).toBe(200);
    expect(seen).toEqual(["answered", "handed on"]);
    seen.length = 0;
    expect((await httpFetch(`${url}/old`, {}, answered)).url).toBe(`${url}/x`);
    expect(seen).toEqual(["answered"]);
  });

  it("decodes a gzip body", async () => {
    const url = await serve((_req, res) => {
      res.setHeader("content-encoding", "gzip");
      res.end(gzipSync(JSON.stringify({ zipped: true })));
    });
    expect(await (await httpFetch(`${url}/`)).text()).toBe('{"zipped":true}');
  });

  it("follows redirects, keeping the token on the same origin and dropping it elsewhere", async () => {
    const elsewhere = await serve(echo);
    const url = await serve((req, res, body) => {
      if (req.url === "/moved") res.writeHead(301, { location: "/here" }).end();
      else if (req.url === "/away") res.writeHead(307, { location: `${elsewhere}/there` }).end();
      else if (req.url === "/created") res.writeHead(303, { location: "/result" }).end();
      else if (req.url === "/renamed") res.writeHead(307, { location: "/new-name" }).end();
      else echo(req, res, body);
    });
    const headers = { authorization: "Bearer t" };
    const moved = await httpFetch(`${url}/moved`, { headers });
    expect(moved.url).toBe(`${url}/here`);
    expect(await moved.json()).toMatchObject({ method: "GET", url: "/here", auth: "Bearer t" });
    const away = await httpFetch(`${url}/away`, { headers });
    expect(await away.json()).toEqual({ method: "GET", url: "/there", body: "" });
    const created = await httpFetch(`${url}/created`, { method: "POST", headers, body: "{}" });
    expect(await created.json()).toMatchObject({ method: "GET", url: "/result", body: "" });
    const renamed = await httpFetch(`${url}/renamed`, { method: "PATCH", headers, body: "{}" });
    expect(await renamed.json()).toEqual({
      method: "PATCH",
      url: "/new-name",
      auth: "Bearer t",
      body: "{}",
    });
  });

  it("follows a write's redirect to another origin nowhere, naming both origins", async () => {
    const received: string[] = [];
    const elsewhere = await serve((req, res, body) => {
      received.push(`${req.method} ${body}`);
      echo(req, res, body);
    });
    const url = await serve((_req, res) =>
      res.writeHead(307, { location: `${elsewhere}/x` }).end(),
    );
    for (const method of ["PUT", "PATCH", "POST", "DELETE"]) {
      const refused = await httpFetch(`${url}/hooks/1`, {
        method,
        body: '{"config":{"secret":"s3cr3t"}}',
      }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ExchangeRefused);
      expect((refused as ExchangeRefused).message).toBe(
        `redirect from ${url} to ${elsewhere} not followed: a write is followed only on its own origin, so its body never goes to another host`,
      );
      expect((refused as ExchangeRefused).status).toBe(307);
    }
    expect(received).toEqual([]);
  });

  it("rejects like fetch: a refused connection as TypeError with the cause, an abort with its reason", async () => {
    const url = await serve(() => {});
    const port = Number(new URL(url).port);
    servers.pop()?.close();
    const refused = await httpFetch(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as Error).cause).toMatchObject({ code: "ECONNREFUSED" });

    const hanging = await serve(() => {});
    const controller = new AbortController();
    const pending = httpFetch(`${hanging}/`, { signal: controller.signal });
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
