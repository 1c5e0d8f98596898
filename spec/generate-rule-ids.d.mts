/** Types of spec/generate-rule-ids.mjs, for tests that import it. */

/** Absolute path of spec/rules.json. */
export declare const RULES_FILE: string;
/** Absolute path of spec/rules.schema.json. */
export declare const RULES_SCHEMA_FILE: string;
/** Absolute path of src/core/rule-id.ts. */
export declare const RULE_ID_FILE: string;
/** The text src/core/rule-id.ts must have for the catalog as it is now. */
export declare function generateRuleIds(): string;
