/** A deploy key as forgeplan compares it, and what a create must read back. */
import { createHash } from "node:crypto";
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";

/** GitHub's Deploy Key; every field the planner reads is checked. */
export const readDeployKey = z.looseObject({
  id: z.number().int(),
  key: z.string().min(1),
  title: z.string(),
  read_only: z.boolean(),
});
export type ReadDeployKey = z.infer<typeof readDeployKey>;

export const DEPLOY_KEY_SHAPE = { name: "deploy keys", schema: readDeployKey };

/**
 * A public key's SHA256 fingerprint as OpenSSH prints it (`ssh-keygen -l`: "SHA256:" and the
 * unpadded base64 of the SHA-256 of the key's blob); undefined for text that is no
 * `<type> <base64>` key.
 */
export function fingerprintOf(text: string): string | undefined {
  const [type, blob] = text.trim().split(/\s+/);
  if (type === undefined || blob === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(blob)) {
    return undefined;
  }
  const bytes = Buffer.from(blob, "base64");
  if (
    bytes.length < 4 ||
    bytes.subarray(4, 4 + bytes.readUInt32BE(0)).toString("latin1") !== type
  ) {
    return undefined;
  }
  return `SHA256:${createHash("sha256").update(bytes).digest("base64").replace(/=+$/, "")}`;
}

export interface CanonicalDeployKey {
  title: string;
  read_only: boolean;
}

export function fromRead(live: ReadDeployKey): CanonicalDeployKey {
  return { title: live.title, read_only: live.read_only };
}

/** What the answer to a create lacks of what was sent. */
export function verifyDeployKey(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "POST") return [];
  const parsed = readDeployKey.safeParse(response);
  if (!parsed.success)
    return [{ path: "(response)", before: "a deploy key", after: "something else" }];
  const sent = request.body as { title: string; key: string; read_only: boolean };
  return diffValues(
    { fingerprint: fingerprintOf(sent.key), title: sent.title, read_only: sent.read_only },
    {
      fingerprint: fingerprintOf(parsed.data.key),
      title: parsed.data.title,
      read_only: parsed.data.read_only,
    },
  );
}
