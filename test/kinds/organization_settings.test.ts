import { conformance } from "./conformance.js";

conformance("organization_settings");
