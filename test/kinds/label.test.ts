import { conformance } from "./conformance.js";

conformance("label");
