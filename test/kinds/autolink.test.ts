import { conformance } from "./conformance.js";

conformance("autolink");
