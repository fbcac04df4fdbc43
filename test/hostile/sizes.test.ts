import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ForgeError } from "../../src/forge/client.js";
import { answer, clientOf, failure, hostile, json } from "./server.js";

const MiB = 1024 * 1024;
const HOOKS = "/repos/acme/api/hooks";

describe("answers too large to hold", () => {
  it("cuts a 50 MB body off while it streams in, without retrying", async () => {
    let written = 0;
    let closed = false;
    const service = await hostile((_req, res) => {
      res.writeHead(200, json);
      res.on("close", () => (closed = true));
      const chunk = Buffer.from(`${JSON.stringify({ id: 1, name: "web" })},`.repeat(2000));
      const more = () => {
        while (!closed && written < 50 * MiB) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        if (!closed) res.end();
      };
      res.write("[");
      more();
    });
    const { client } = clientOf(service.url, { maxResponseBytes: MiB });
    const error = await failure(client.paginate(HOOKS));
    expect(error).toBeInstanceOf(ForgeError);
    expect(error.message).toBe(
      `GET ${HOOKS}?per_page=100 answered 200 with a body larger than 1 MiB, the most forgeplan reads of one answer`,
    );
    expect(service.seen).toHaveLength(1);
    // What the socket buffers held when the client hung up, not the 50 MB.
    expect(written).toBeLessThan(16 * MiB);
  });

  it("refuses a body whose Content-Length is over the maximum before reading it", async () => {
    const service = await hostile((_req, res) => {
      res.writeHead(200, { ...json, "content-length": String(64 * MiB) });
      res.write("[");
    });
    const { client } = clientOf(service.url, { maxResponseBytes: MiB });
    expect((await failure(client.get(HOOKS))).message).toBe(
      `GET ${HOOKS} answered 200 with a body larger than 1 MiB, the most forgeplan reads of one answer`,
    );
  });

  it("refuses a compressed body that decodes to more than the maximum", async () => {
    const bomb = gzipSync(Buffer.alloc(32 * MiB, " "));
    const zipped = await hostile((_req, res) => {
      res.writeHead(200, { ...json, "content-encoding": "gzip" });
      res.end(bomb);
    });
    expect(bomb.length).toBeLessThan(MiB);
    const { client } = clientOf(zipped.url, { maxResponseBytes: MiB });
    expect((await failure(client.get(HOOKS))).message).toBe(
      `GET ${HOOKS} answered 200 with a body larger than 1 MiB, the most forgeplan reads of one answer`,
    );
  });

  it("reads a page of 200,000 items without putting them on the stack", async () => {
    const items = Array.from({ length: 200_000 }, (_, i) => i);
    const service = await hostile((_req, res) => answer(res, 200, json, items));
    const { client } = clientOf(service.url);
    const all = await client.paginate<number>(HOOKS);
    expect(all).toHaveLength(200_000);
    expect(all.at(-1)).toBe(199_999);
  });
});
