import { describe, expect, it } from "vitest";
import type { StreamEvent } from "../api/runStream";
import { firstError, highlight, indentOf, logJsonLines, logLine, logText, searchLog } from "./runLog";

let sequence = 0;
const at = "2026-12-04T12:00:00.000Z";
const event = (kind: string, data: unknown): StreamEvent => ({ sequence: ++sequence, kind, data, occurredAt: at });
const line = (kind: string, data: unknown) => logLine(event(kind, data));

describe("logLine", () => {
  it("shows the agent's output as it was, stderr marked, with nothing to expand", () => {
    expect(line("output", { stream: "stdout", line: "  building" })).toMatchObject({
      label: "",
      text: "  building",
      tone: "plain",
      indent: 2,
      raw: null,
    });
    expect(line("output", { stream: "stderr", line: "it broke" })).toMatchObject({ label: "stderr", tone: "stderr", raw: null });
  });

  it("shows a JSON object the agent printed as JSON, expandable", () => {
    const printed = line("output", { stream: "stdout", json: { progress: 0.5 } });
    expect(printed).toMatchObject({ label: "output", text: '{"progress":0.5}' });
    expect(printed.raw).toBe(JSON.stringify({ stream: "stdout", json: { progress: 0.5 } }, null, 2));
  });

  it("says a status change in words", () => {
    expect(line("status", { status: "queued", from: null, reason: null })).toMatchObject({ text: "queued", raw: null });
    expect(line("status", { status: "waiting_approval", from: "running", reason: "approval requested: rm" }).text).toBe(
      "running → waiting_approval (approval requested: rm)",
    );
  });

  it("says what a tool call does, and keeps its JSON to expand", () => {
    const call = line("tool_call", { id: "t1", name: "Bash", input: { command: "ls -la", description: "list" } });
    expect(call).toMatchObject({ label: "tool call", text: "Bash ls -la", tone: "plain" });
    expect(JSON.parse(call.raw!)).toEqual({ id: "t1", name: "Bash", input: { command: "ls -la", description: "list" } });
    expect(line("tool_call", { id: "t2", name: "execute", title: "echo hi", input: { x: 1 } }).text).toBe('execute: echo hi {"x":1}');
  });

  it("marks a failed tool result as an error, and keeps a long output's first line", () => {
    const failed = line("tool_result", { tool_use_id: "t1", output: "no such file\nsee above", exit_code: 2, is_error: true });
    expect(failed).toMatchObject({ text: "exit 2 · no such file", more: "exit 2 · no such file\nsee above", tone: "error" });
    expect(line("tool_result", { output: "", is_error: false })).toMatchObject({ text: "(no output)", tone: "plain" });
  });

  it("names a file change, a message and usage", () => {
    expect(line("file_change", { path: "src/a.ts", kind: "update" })).toMatchObject({ label: "file change", text: "update src/a.ts" });
    expect(line("file_change", { path: "notes.md", tool: "write_file" }).text).toBe("changed notes.md (write_file)");
    expect(line("message", { role: "assistant", text: "Done." }).text).toBe("assistant: Done.");
    expect(line("usage", { source: "gateway", input_tokens: 1200, output_tokens: 34, cached_input_tokens: 0, cost_usd: 0.0123, model: "m1" }).text).toBe(
      "1,200 tokens in · 34 out · 0 cached · $0.0123 · m1",
    );
    expect(line("usage", { source: "runtime", tokens: "unknown" }).text).toBe("source=runtime tokens=unknown");
  });

  it("marks errors and a failed or lost result, not a success", () => {
    expect(line("error", { code: "budget_exceeded", message: "the budget is used up" })).toMatchObject({
      text: "budget_exceeded: the budget is used up",
      tone: "error",
    });
    expect(line("result", { outcome: "failed", exit_code: 3, signal: null })).toMatchObject({ text: "failed · exit code 3", tone: "error" });
    expect(line("result", { outcome: "lost" }).tone).toBe("error");
    expect(line("result", { outcome: "succeeded", exit_code: 0 }).tone).toBe("plain");
  });

  it("says what an approval request asks, and any other object as keys and values", () => {
    expect(line("approval_requested", { request_id: "r", action: "deploy", reason: "asked" }).text).toBe("deploy — asked");
    expect(line("started", { pid: 42, model: "m1" })).toMatchObject({ label: "started", text: "pid=42 model=m1" });
    expect(line("checkpoint", { state: { step: 1 } }).text).toBe('state={"step":1}');
  });

  it("says how far the agent reported it is", () => {
    expect(line("progress", { message: "reading the memory", percent: 40 }).text).toBe("40% · reading the memory");
    expect(line("progress", { message: "reading the memory", percent: null }).text).toBe("reading the memory");
  });
});

describe("indentOf", () => {
  it("counts leading spaces, a tab as four", () => {
    expect(indentOf("x")).toBe(0);
    expect(indentOf("    x")).toBe(4);
    expect(indentOf("\t  x")).toBe(6);
  });
});

describe("search", () => {
  const lines = [
    line("output", { stream: "stdout", line: "Building step 1" }),
    line("output", { stream: "stderr", line: "warning: slow" }),
    line("message", { role: "assistant", text: "first\nthen the BUILDING is done" }),
  ];

  it("finds the lines that contain the words, ignoring case, in every line of a message", () => {
    expect(searchLog(lines, "building").map((l) => l.sequence)).toEqual([lines[0].sequence, lines[2].sequence]);
    expect(searchLog(lines, "stderr")).toEqual([lines[1]]);
    expect(searchLog(lines, "  ")).toBe(lines);
  });

  it("cuts a line into what matches and what does not", () => {
    expect(highlight("Build, then build", "build")).toEqual([
      { text: "Build", match: true },
      { text: ", then ", match: false },
      { text: "build", match: true },
    ]);
    expect(highlight("nothing here", "x")).toEqual([{ text: "nothing here", match: false }]);
    expect(highlight("as is", "")).toEqual([{ text: "as is", match: false }]);
  });

  it("finds the first error, not stderr", () => {
    const failing = [...lines, line("error", { message: "refused" }), line("result", { outcome: "failed" })];
    expect(firstError(failing)).toBe(3);
    expect(firstError(lines)).toBe(-1);
  });
});

describe("download", () => {
  it("writes one event a line with its exact time, later lines of a message under it", () => {
    const lines = [
      line("output", { stream: "stdout", line: "  indented" }),
      line("output", { stream: "stderr", line: "oops" }),
      line("message", { role: "assistant", text: "one\ntwo" }),
    ];
    expect(logText(lines)).toBe(
      `${at}   indented\n${at} stderr: oops\n${at} message: assistant: one\n${" ".repeat(at.length + 10)}two\n`,
    );
  });

  it("writes JSON lines that read back as the events", () => {
    const events = [event("output", { stream: "stdout", line: "hi" }), event("status", { status: "running" })];
    const read = logJsonLines(events)
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(read).toEqual(events);
  });
});
