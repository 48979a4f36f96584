import { describe, expect, it } from "vitest";
import { importedMessage, signatureHeader, signatureText, skillScopes } from "./skillsView";

describe("the skills page", () => {
  it("activates in the organization, workspaces and projects, never an agent", () => {
    const scopes = [
      { id: "o", label: "Organization", path: ["o"] },
      { id: "w", label: "Workspace", path: ["o", "w"] },
      { id: "p", label: "Project", path: ["o", "w", "p"] },
      { id: "a", label: "Agent", path: ["o", "w"] },
    ];
    expect(skillScopes(scopes).map((s) => s.id)).toEqual(["o", "w", "p"]);
  });

  it("says what a signature check found, with the key when there is one", () => {
    expect(signatureText("VERIFIED", "ABCD")).toBe("signed by a trusted key (ABCD)");
    expect(signatureText("UNSIGNED", null)).toBe("unsigned");
    expect(signatureText("INVALID", null)).toBe("signature does not match (tampered?)");
  });

  it("sends a signature file's text as base64, line breaks and all", () => {
    const text = "untrusted comment: signature\nRUQ=\ntrusted comment: ünïcode\n";
    expect(atob(signatureHeader(text))).toBe(String.fromCharCode(...new TextEncoder().encode(text)));
    expect(signatureHeader(text)).not.toContain("\n");
  });

  it("tells a new version from files already imported", () => {
    expect(importedMessage({ skill: { name: "notes" }, version: { number: 2, reviewState: "quarantined" }, existing: false })).toBe(
      "Imported notes version 2: quarantined.",
    );
    expect(importedMessage({ skill: { name: "notes" }, version: { number: 1, reviewState: "in_review" }, existing: true })).toBe(
      "These files are already notes version 1 (in review).",
    );
  });
});
