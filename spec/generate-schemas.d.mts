/** Types of spec/generate-schemas.mjs, for tests that import it. */

/** Absolute path of src/core/types.ts, the source of the schemas. */
export declare const TYPES_FILE: string;
/** Absolute path of spec/schemas/. */
export declare const SCHEMAS_DIR: string;
/** The JSON Schema dialect every generated file declares (2020-12). */
export declare const SCHEMA_DIALECT: string;
/** Prefix of every generated `$id`. */
export declare const ID_PREFIX: string;
/** File stem to exported type name in src/core/types.ts. */
export declare const SCHEMA_TYPES: Readonly<Record<string, string>>;
/** Every schema file as text, keyed by file name; writes nothing. */
export declare function generateSchemas(): Record<string, string>;
/** Names of committed files that differ from the generated text (missing and stale included). */
export declare function schemaDrift(generated?: Record<string, string>, dir?: string): string[];
