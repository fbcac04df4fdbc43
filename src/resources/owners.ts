import * as z from "zod";
import type { ReadResult } from "./context.js";
import { oncePerOrganization } from "./once-per-organization.js";

const member = {
  name: "organization members",
  schema: z.looseObject({ login: z.string().min(1) }),
};

/**
 * An organization's owners, as lower-case logins (`GET /orgs/{org}/members?role=admin`). Owners have
 * admin on every repository and are maintainers of every team they are in ("The `role` for
 * organization owners is set to `maintainer`", GitHub's "Get team membership for a user"), whatever
 * a grant says.
 */
export const ownersOf = oncePerOrganization(
  async (reader, org): Promise<ReadResult<Set<string>>> => {
    const read = await reader.list(
      `/orgs/${encodeURIComponent(org)}/members`,
      { role: "admin" },
      member,
    );
    if (read.kind !== "found") return read;
    return { kind: "found", data: new Set(read.data.map((user) => user.login.toLowerCase())) };
  },
);
