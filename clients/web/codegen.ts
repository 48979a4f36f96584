// Types every operation in src/ from the server's checked-in schema; `npm run check:codegen`
// fails when src/gql is stale.
import type { CodegenConfig } from "@graphql-codegen/cli";

const config: CodegenConfig = {
  schema: "../../schema.graphql",
  // Tests write their own small documents against the schema; they are not the app's operations.
  documents: ["src/**/*.{ts,tsx}", "!src/gql/**/*", "!src/**/*.test.{ts,tsx}"],
  ignoreNoDocuments: false,
  generates: {
    "src/gql/": {
      preset: "client",
      config: {
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { DateTime: "string", JSON: "unknown" },
      },
      presetConfig: { fragmentMasking: false },
    },
    // The offline cache needs the schema to read partial results and key root types.
    "src/gql/introspection.ts": {
      plugins: ["urql-introspection"],
      config: { includeScalars: true, module: "es2015", useTypeImports: true },
    },
  },
};

export default config;
