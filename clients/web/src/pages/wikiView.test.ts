import { describe, expect, test } from "vitest";
import { attachmentPath, diffLineKind, escapeHtml, markdownToHtml, wikiScopes, writtenByAgent } from "./wikiView";
import { scopeChoices } from "./scopes";

describe("wiki view", () => {
  test("an attachment's name travels in the query, encoded", () => {
    expect(attachmentPath("V2lraVBhZ2U6MQ==", "diagrams/flow chart.svg")).toBe(
      "/v1/wiki/pages/V2lraVBhZ2U6MQ%3D%3D/attachments?name=diagrams%2Fflow+chart.svg",
    );
  });

  test("a wiki lives in workspaces and projects, not the organization or an agent", () => {
    const workspaces = [{ id: "w", name: "Platform", projects: { nodes: [{ id: "p", name: "Website" }] } }];
    const scopes = scopeChoices({ id: "o", name: "Acme" }, workspaces, new Map([["w", [{ id: "a", name: "builder" }]]]));
    expect(wikiScopes(scopes).map((s) => s.id)).toEqual(["w", "p"]);
  });

  test("HTML's special characters are escaped", () => {
    expect(escapeHtml(`<img src="x" onerror='y'> & co`)).toBe("&lt;img src=&quot;x&quot; onerror=&#39;y&#39;&gt; &amp; co");
  });

  test("raw HTML in Markdown renders as text", () => {
    const html = markdownToHtml("# Title\n\n<script>alert(1)</script>\n\nand <b onclick=\"x\">inline</b>");
    expect(html).toContain("<h1>Title</h1>");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b ");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  test("a revision a run wrote is told from a person's", () => {
    expect(writtenByAgent({ source: "run", runId: "r", attemptId: "a" })).toBe(true);
    expect(writtenByAgent({ source: "person", userId: "u" })).toBe(false);
    expect([null, "run", 7].map(writtenByAgent)).toEqual([false, false, false]);
  });

  test("diff lines are told apart by their sign, headers aside", () => {
    expect(["+++ a @2", "--- a @1", "+new", "-old", " same", "@@ -1 +1 @@"].map(diffLineKind)).toEqual([
      "context",
      "context",
      "added",
      "removed",
      "context",
      "context",
    ]);
  });
});
