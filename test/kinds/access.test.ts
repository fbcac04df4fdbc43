import { conformance } from "./conformance.js";

conformance("access");
