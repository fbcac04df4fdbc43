import { defineKind } from "../kind.js";
import { auditInvitations } from "./plan.js";
import { invitationsSetting } from "./settings.js";

/** Audit of a repository's open invitations (`invitations: {…}`): reported, never changed. */
export const invitation = defineKind({
  name: "invitation",
  repository: {
    setting: invitationsSetting,
    plan: ({ reader, at, value, options }) => auditInvitations(reader, at, value, options.now),
  },
});
