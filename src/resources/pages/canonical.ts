/** A Pages site as GitHub answers it, and as forgeplan compares it. */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import type { PagesSite } from "./settings.js";

/** GitHub's Page; every field the planner reads is checked. */
export const readPages = z.looseObject({
  build_type: z.enum(["legacy", "workflow"]).nullish(),
  source: z.looseObject({ branch: z.string(), path: z.string() }).nullish(),
  cname: z.string().nullable(),
  https_enforced: z.boolean().optional(),
});
export type ReadPages = z.infer<typeof readPages>;

export const PAGES_SHAPE = { name: "a GitHub Pages site", schema: readPages };

export interface CanonicalPages {
  build_type: "legacy" | "workflow";
  source?: { branch: string; path: string };
  cname?: string | null;
  https_enforced?: boolean;
}

/** The live site, with the fields the written value manages. */
export function liveOf(live: ReadPages, written: PagesSite): CanonicalPages {
  const type = live.build_type ?? "legacy";
  return {
    build_type: type,
    ...(type === "legacy" && live.source
      ? { source: { branch: live.source.branch, path: live.source.path } }
      : {}),
    ...(written.cname === undefined ? {} : { cname: live.cname }),
    ...(written.https_enforced === undefined
      ? {}
      : { https_enforced: live.https_enforced ?? false }),
  };
}

export function desiredOf(written: PagesSite): CanonicalPages {
  return {
    build_type: written.build_type ?? "legacy",
    ...(written.source
      ? { source: { branch: written.source.branch, path: written.source.path ?? "/" } }
      : {}),
    ...(written.cname === undefined ? {} : { cname: written.cname }),
    ...(written.https_enforced === undefined ? {} : { https_enforced: written.https_enforced }),
  };
}

/** What the answer to a create lacks of what was sent (an update answers nothing). */
export function verifyPages(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "POST") return [];
  const parsed = readPages.safeParse(response);
  if (!parsed.success)
    return [{ path: "(response)", before: "a Pages site", after: "something else" }];
  const sent = request.body as { build_type: string; source?: { branch: string; path: string } };
  return diffValues(
    { build_type: sent.build_type, source: sent.source ?? null },
    {
      build_type: parsed.data.build_type ?? "legacy",
      source: sent.source === undefined ? null : (parsed.data.source ?? null),
    },
  );
}
