import { conformance } from "./conformance.js";

conformance("settings");
