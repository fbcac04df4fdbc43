import { conformance } from "./conformance.js";

conformance("group_settings");
