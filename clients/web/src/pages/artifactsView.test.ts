import { describe, expect, it } from "vitest";
import {
  askForFilesAgain,
  attachedFile,
  downloadName,
  filesOfRun,
  formatSize,
  mediaTypeOf,
  nameForChosen,
  readRefusal,
  replacedNote,
  shortDigest,
  uploadPath,
  uploadedMessage,
  versionLabel,
} from "./artifactsView";

describe("an upload", () => {
  it("goes to the task's artifact of its name, the name kept whole as a path", () => {
    expect(uploadPath({ projectId: "p1", taskId: "t1", name: "reports/summary 2.md" })).toBe(
      "/v1/artifacts?projectId=p1&taskId=t1&name=reports%2Fsummary+2.md",
    );
  });

  it("goes to the project's own artifacts without a task", () => {
    expect(uploadPath({ projectId: "p1", name: "build.log" })).toBe("/v1/artifacts?projectId=p1&name=build.log");
    expect(uploadPath({ projectId: "p1", taskId: null, name: "a&b=c?.txt" })).toBe("/v1/artifacts?projectId=p1&name=a%26b%3Dc%3F.txt");
  });

  it("says what the bytes are as the browser guessed, or leaves it to the server's default", () => {
    expect(mediaTypeOf({ type: "text/markdown" })).toBe("text/markdown");
    expect(mediaTypeOf({ type: "" })).toBe("application/octet-stream");
  });

  it("is named after the chosen file unless the person typed another name", () => {
    expect(nameForChosen("", null, "notes.txt")).toBe("notes.txt");
    expect(nameForChosen("  ", null, "notes.txt")).toBe("notes.txt");
    // Choosing another file replaces the name the previous one gave…
    expect(nameForChosen("notes.txt", "notes.txt", "summary.md")).toBe("summary.md");
    // …but not one the person typed.
    expect(nameForChosen("reports/summary.md", "notes.txt", "summary.md")).toBe("reports/summary.md");
  });

  it("says which version it made of which artifact", () => {
    const uploaded = {
      artifact: { id: "a1", name: "reports/summary.md", revision: 2 },
      version: { id: "v2", number: 2, sha256: "ab".repeat(32), sizeBytes: 12, mediaType: "text/markdown", downloadPath: "/v1/artifacts/versions/v2" },
    };
    expect(uploadedMessage(uploaded)).toBe("Uploaded version 2 of “reports/summary.md”.");
  });
});

describe("a size", () => {
  it("is told in bytes below a kilobyte", () => {
    expect(formatSize(0)).toBe("0 B");
    expect(formatSize(1023)).toBe("1023 B");
  });

  it("has one decimal below ten of its unit, none above", () => {
    expect(formatSize(1024)).toBe("1 KB");
    expect(formatSize(1229)).toBe("1.2 KB");
    expect(formatSize(12_800)).toBe("13 KB");
    expect(formatSize(3.4 * 1024 * 1024)).toBe("3.4 MB");
    expect(formatSize(268_435_456)).toBe("256 MB");
    expect(formatSize(5 * 1024 ** 3)).toBe("5 GB");
  });

  it("moves to the next unit rather than say 1024 of one", () => {
    expect(formatSize(1024 * 1024 - 1)).toBe("1 MB");
  });
});

describe("a version", () => {
  it("is told apart by the start of its digest", () => {
    expect(shortDigest("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")).toBe("e3b0c44298fc");
  });

  it("is saved under the last part of its artifact's name", () => {
    expect(downloadName("reports/2026/summary.md")).toBe("summary.md");
    expect(downloadName("build.log")).toBe("build.log");
  });
});

describe("a refusal", () => {
  const body = (error: object) => JSON.stringify({ error });

  it("tells the server's message, code and correlation id", () => {
    const refused = body({ code: "VALIDATION", message: "an artifact's name has no `.` or `..` part", details: { argument: "name" }, correlationId: "c-1" });
    expect(readRefusal(400, refused)).toEqual({ message: "an artifact's name has no `.` or `..` part", code: "VALIDATION", correlationId: "c-1" });
  });

  it("tells the size limit of a file too large", () => {
    const refused = body({ code: "VALIDATION", message: "an artifact is at most 268435456 bytes", details: { maxBytes: 268_435_456 }, correlationId: "c-2" });
    expect(readRefusal(413, refused)).toEqual({
      message: "The file is too large: an artifact is at most 256 MB. Nothing was kept.",
      code: "VALIDATION",
      correlationId: "c-2",
    });
  });

  it("says a file is too large even when a proxy refused it", () => {
    expect(readRefusal(413, "<html>Request Entity Too Large</html>", "c-3")).toEqual({
      message: "The file is too large. Nothing was kept.",
      code: "VALIDATION",
      correlationId: "c-3",
    });
  });

  it("says what status came back when the body is not the server's", () => {
    expect(readRefusal(502, "<html>Bad Gateway</html>")).toEqual({ message: "The server answered 502 without saying why.", code: null, correlationId: null });
    expect(readRefusal(404, "")).toEqual({ message: "The server answered 404 without saying why.", code: null, correlationId: null });
    expect(readRefusal(500, JSON.stringify({ error: "boom" }), "c-4").correlationId).toBe("c-4");
  });
});

describe("a run's files", () => {
  const version = (number: number, runId: string | null) => ({ id: `v${number}`, number, runId });
  const artifact = (name: string, ...versions: ReturnType<typeof version>[]) => ({ id: name, name, versions });

  it("are the artifacts the run uploaded a version of, with its versions alone, newest first", () => {
    const notes = artifact("notes.md", version(4, "r2"), version(3, "r1"), version(2, null), version(1, "r1"));
    const log = artifact("build.log", version(1, "r1"));
    const files = filesOfRun([log, notes], "r1");
    expect(files.map((f) => f.artifact.name)).toEqual(["build.log", "notes.md"]);
    expect(files[0]?.versions.map((v) => v.number)).toEqual([1]);
    expect(files[1]?.versions.map((v) => v.number)).toEqual([3, 1]);
  });

  it("say when a later version from elsewhere replaced the run's, a person's or another run's", () => {
    const [byRun, byPerson] = filesOfRun(
      [artifact("a.txt", version(2, "r2"), version(1, "r1")), artifact("b.txt", version(3, null), version(2, "r1"))],
      "r1",
    );
    expect(byRun?.replacedBy?.number).toBe(2);
    expect(byPerson?.replacedBy?.number).toBe(3);
    expect(replacedNote(byRun?.replacedBy ?? null)).toBe("Since replaced: the latest is version 2, not from this run.");
  });

  it("are not replaced while the run's version is the newest", () => {
    const [file] = filesOfRun([artifact("a.txt", version(2, "r1"), version(1, "r2"))], "r1");
    expect(file?.replacedBy).toBeNull();
    expect(replacedNote(null)).toBeNull();
  });

  it("leave out an artifact with no version of the run's", () => {
    expect(filesOfRun([artifact("a.txt", version(1, "r2")), artifact("b.txt")], "r1")).toEqual([]);
    expect(filesOfRun([], "r1")).toEqual([]);
  });

  it("label each version by its number", () => {
    expect(versionLabel(3)).toBe("Version 3");
  });

  it("are asked for again once the run's status moved on from the one they were asked at", () => {
    const answered = { node: { artifacts: [] } };
    const at = (status: string) => ({ status, attached: null });
    expect(askForFilesAgain(answered, at("RUNNING"), at("SUCCEEDED"))).toBe(true);
    expect(askForFilesAgain(answered, at("QUEUED"), at("RUNNING"))).toBe(true);
    // Not while nothing changed, nor before the first answer.
    expect(askForFilesAgain(answered, at("RUNNING"), at("RUNNING"))).toBe(false);
    expect(askForFilesAgain(undefined, at("RUNNING"), at("SUCCEEDED"))).toBe(false);
  });

  it("are asked for again once the run's log said a file was attached since they were asked", () => {
    const answered = { node: { artifacts: [] } };
    expect(askForFilesAgain(answered, { status: "RUNNING", attached: null }, { status: "RUNNING", attached: 7 })).toBe(true);
    expect(askForFilesAgain(answered, { status: "RUNNING", attached: 7 }, { status: "RUNNING", attached: 9 })).toBe(true);
    expect(askForFilesAgain(answered, { status: "RUNNING", attached: 9 }, { status: "RUNNING", attached: 9 })).toBe(false);
    expect(askForFilesAgain(undefined, { status: "RUNNING", attached: null }, { status: "RUNNING", attached: 7 })).toBe(false);
  });

  it("are attached as the control plane's notice of the version says", () => {
    const notice = { message: "attached `build.log` (version 1)", artifact_id: "0190-a", version_id: "0190-v" };
    expect(attachedFile({ kind: "notice", data: notice })).toBe(true);
    // Other notices, and an agent's own word of a changed file, are not an attached file.
    expect(attachedFile({ kind: "notice", data: { message: "handed off" } })).toBe(false);
    expect(attachedFile({ kind: "file_change", data: { path: "build.log", kind: "update" } })).toBe(false);
    expect(attachedFile({ kind: "notice", data: null })).toBe(false);
  });
});
