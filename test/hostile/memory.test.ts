import { spawn } from "node:child_process";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";
import { hostile, json } from "./server.js";

const HOOK_COUNT = 200_000;

function hook(id: number): string {
  return JSON.stringify({
    type: "Repository",
    id,
    name: "web",
    active: true,
    events: ["push", "pull_request"],
    config: {
      content_type: "json",
      insecure_ssl: "0",
      url: `https://hooks.example.com/deliver/${id}`,
    },
    updated_at: "2024-01-01T00:00:00Z",
    created_at: "2024-01-01T00:00:00Z",
    url: `https://api.github.com/repos/acme/api/hooks/${id}`,
  });
}

/** Streams hooks `from`..`to` as one JSON list, made as it goes so the server holds none of it. */
function streamHooks(res: ServerResponse, from: number, to: number): void {
  let next = from;
  const more = () => {
    while (next < to) {
      const batch: string[] = [];
      for (let i = 0; i < 500 && next < to; i++, next++) batch.push(hook(next));
      const text = `${next - batch.length === from ? "" : ","}${batch.join(",")}`;
      if (!res.write(text)) return void res.once("drain", more);
    }
    res.end("]");
  };
  res.write("[");
  more();
}

/**
 * Lists the hooks with the built client in a child process (so its memory is its own), with the
 * client's default size and page limits, and reports how it ended and its peak resident memory.
 * The secondary-limit pacing (900 points a minute) is lifted: a thousand pages would otherwise wait
 * a minute for it.
 */
async function listInChild(url: string): Promise<{ outcome: string; maxRssMiB: number }> {
  const script = `
    const { ForgeClient } = await import(${JSON.stringify(`${repoRoot}dist/forge/client.js`)});
    const client = new ForgeClient({ baseUrl: ${JSON.stringify(url)}, kind: "repository", pointsPerMinute: 1e6 });
    let outcome;
    try {
      outcome = "finished with " + (await client.paginate("/repos/acme/api/hooks")).length + " hooks";
    } catch (error) {
      outcome = error.name + ": " + error.message;
    }
    process.stdout.write(JSON.stringify({ outcome, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(`child exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as { outcome: string; maxRssMiB: number };
}

describe("a listing of 200,000 hooks", () => {
  it("in one 50 MB answer ends in a clear error, well under 300 MB", async () => {
    const service = await hostile((_req, res) => {
      res.writeHead(200, json);
      streamHooks(res, 0, HOOK_COUNT);
    });
    const { outcome, maxRssMiB } = await listInChild(service.url);
    expect(outcome).toBe(
      "ForgeError: GET /repos/acme/api/hooks?per_page=100 answered 200 with a body larger than 16 MiB, the most forgeplan reads of one answer",
    );
    expect(maxRssMiB).toBeLessThan(300);
  });

  it("in pages of 100 ends in a clear error at the page cap, well under 300 MB", async () => {
    // No rel="last": a listing that names its last page past the cap ends after its first page
    // (test/hostile/pagination.test.ts); this one is read page by page up to the cap.
    const service = await hostile((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      const page = Number(url.searchParams.get("page") ?? 1);
      url.searchParams.set("page", String(page + 1));
      const next = `<http://${req.headers.host}${url.pathname}${url.search}>; rel="next"`;
      res.writeHead(200, { ...json, link: next });
      streamHooks(res, (page - 1) * 100, page * 100);
    });
    const { outcome, maxRssMiB } = await listInChild(service.url);
    expect(outcome).toBe(
      "ForgeError: GET /repos/acme/api/hooks?per_page=100&page=1001 → the listing goes on past 1000 pages, the most forgeplan reads of one listing (--max-pages raises it)",
    );
    expect(service.seen).toHaveLength(1000);
    expect(maxRssMiB).toBeLessThan(300);
  });
});
