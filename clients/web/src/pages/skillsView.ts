// What the Skills page computes without the server: where skills are activated, how a review
// state and a signature check read, and the `Skill-Signature` header a signature file becomes.
import type { Scope } from "./scopes";

/** The organization, workspaces and projects (not agents): where a skill is activated. */
export function skillScopes(scopes: readonly Scope[]): Scope[] {
  return scopes.filter((s) => s.path[s.path.length - 1] === s.id);
}

const SIGNATURES: Record<string, string> = {
  VERIFIED: "signed by a trusted key",
  UNSIGNED: "unsigned",
  UNKNOWN_SIGNER: "signed by an unknown key",
  REVOKED_KEY: "signed by a revoked key",
  INVALID: "signature does not match (tampered?)",
};

/** A signature check in words. */
export function signatureText(status: string, keyId: string | null | undefined): string {
  const text = SIGNATURES[status] ?? status.toLowerCase();
  return keyId && status !== "UNSIGNED" ? `${text} (${keyId})` : text;
}

/** The header value of a `.minisig` file's text: base64 of its UTF-8 bytes (a header holds no line break). */
export function signatureHeader(minisig: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(minisig)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** What an import's answer says, in a sentence. */
export function importedMessage(answer: { skill: { name: string }; version: { number: number; reviewState: string }; existing: boolean }): string {
  const state = answer.version.reviewState.replace("_", " ");
  return answer.existing
    ? `These files are already ${answer.skill.name} version ${answer.version.number} (${state}).`
    : `Imported ${answer.skill.name} version ${answer.version.number}: ${state}.`;
}
