import { conformance } from "./conformance.js";

conformance("custom_property");
