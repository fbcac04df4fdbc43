/**
 * What the access kind reads of a repository's organization, once per run: its custom repository
 * roles (to resolve a role written by name) and its security manager teams (which a repository
 * cannot lose), both only when a plan needs them.
 */
import * as z from "zod";
import { changeError, type ReadResult } from "../context.js";
import { oncePerOrganization } from "../once-per-organization.js";
import type { BuiltInRole } from "./roles.js";

export interface CustomRole {
  /** As the organization spells it. */
  name: string;
  base: BuiltInRole;
}

const customRolesShape = {
  name: "a list of custom repository roles",
  schema: z.looseObject({
    total_count: z.number().int().optional(),
    custom_roles: z.array(
      z.looseObject({
        name: z.string().min(1),
        base_role: z.enum(["read", "triage", "write", "maintain"]),
      }),
    ),
  }),
};

/**
 * The organization's custom repository roles by lower-case name (`GET
 * /orgs/{org}/custom-repository-roles`, GitHub Enterprise Cloud's operation; an object, read whole).
 */
export const customRolesOf = oncePerOrganization(
  async (reader, org): Promise<ReadResult<Map<string, CustomRole>>> => {
    const path = `/orgs/${encodeURIComponent(org)}/custom-repository-roles`;
    const read = await reader.getOrAbsent(path, customRolesShape);
    if (read.kind === "error") return read;
    if (read.kind === "absent") {
      return {
        kind: "error",
        error: changeError(
          `${org} has no custom repository roles to read (they belong to organizations on GitHub Enterprise)`,
          "GET",
          path,
          404,
        ),
      };
    }
    return {
      kind: "found",
      data: new Map(
        read.data.custom_roles.map((role) => [
          role.name.toLowerCase(),
          { name: role.name, base: role.base_role },
        ]),
      ),
    };
  },
);

const rolesShape = {
  name: "a list of organization roles",
  schema: z.looseObject({
    roles: z.array(z.looseObject({ id: z.number().int(), name: z.string() })),
  }),
};
const assignedTeam = { name: "teams", schema: z.looseObject({ slug: z.string().min(1) }) };

/**
 * The slugs (lower case) of the teams assigned the predefined `security_manager` organization role,
 * which GitHub keeps on every repository of the organization ("You cannot remove repositories from a
 * security manager team", integrations/terraform-provider-github#2027). Read through the
 * organization roles (`GET /orgs/{org}/organization-roles`, then the role's teams), which replace
 * the closing-down `GET /orgs/{org}/security-managers`.
 */
export const securityManagersOf = oncePerOrganization(
  async (reader, org): Promise<ReadResult<Set<string>>> => {
    const base = `/orgs/${encodeURIComponent(org)}/organization-roles`;
    const roles = await reader.getOrAbsent(base, rolesShape);
    if (roles.kind === "error") return roles;
    if (roles.kind === "absent") {
      return {
        kind: "error",
        error: changeError(
          `the organization roles of ${org} were not found (or ${reader.credential} may not read them; an organization owner's token can)`,
          "GET",
          base,
          404,
        ),
      };
    }
    const role = roles.data.roles.find((candidate) => candidate.name === "security_manager");
    if (role === undefined) return { kind: "found", data: new Set() };
    const teams = await reader.list(`${base}/${role.id}/teams`, undefined, assignedTeam);
    if (teams.kind === "error") return teams;
    if (teams.kind === "absent") return { kind: "found", data: new Set() };
    return { kind: "found", data: new Set(teams.data.map((team) => team.slug.toLowerCase())) };
  },
);
