import { conformance } from "./conformance.js";

conformance("migration");
