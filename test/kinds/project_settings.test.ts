import { conformance } from "./conformance.js";

conformance("project_settings");
