// Artifacts as the task page shows them: where an upload goes, sizes as people read them, what
// the server said when it refused an upload or a download, and the file a download is saved as;
// and as the run page shows them: the files its agent attached, each with the run's own versions,
// asked again when the run's log says one was attached.
// Their bytes move over HTTP (docs/artifacts.md), so the server's refusals come as its JSON
// error body, not as GraphQL errors.
import type { ErrorInfo } from "../api/errors";

/** Where a task's artifact named `name` is uploaded: its next version, or its first. */
export function uploadPath(place: { projectId: string; taskId?: string | null; name: string }): string {
  const params = new URLSearchParams({ projectId: place.projectId });
  if (place.taskId) params.set("taskId", place.taskId);
  params.set("name", place.name);
  return `/v1/artifacts?${params.toString()}`;
}

/** What the server is told the bytes are: the browser's guess, or none (the server's default). */
export function mediaTypeOf(file: { type: string }): string {
  return file.type || "application/octet-stream";
}

const UNITS = ["KB", "MB", "GB", "TB"];

/**
 * A size as file managers say it: "812 B", "1.2 KB", "45 MB" (in 1024s, as the server's limit of
 * 256 MiB is set); one decimal below 10 so that small files still tell apart.
 */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let size = bytes / 1024;
  let unit = 0;
  while (size >= 1024 && unit < UNITS.length - 1) {
    size /= 1024;
    unit += 1;
  }
  const shown = size < 10 ? (Math.round(size * 10) / 10).toString() : Math.round(size).toString();
  // 1023.6 KB rounds to "1024 KB": say the next unit instead.
  if (shown === "1024" && unit < UNITS.length - 1) return `1 ${UNITS[unit + 1]}`;
  return `${shown} ${UNITS[unit]}`;
}

/** Enough of a digest to tell versions apart at a glance; the whole one is on hover. */
export function shortDigest(sha256: string): string {
  return sha256.slice(0, 12);
}

/**
 * The file a download is saved as: the name's last part, as the server's Content-Disposition
 * says. A name is a relative path (`reports/summary.md`) and a browser saves into one folder.
 */
export function downloadName(name: string): string {
  return name.split("/").filter(Boolean).pop() ?? name;
}

/**
 * The name the upload form holds once a file is chosen: the file's own, unless the person typed
 * another (one that is neither empty nor the previously chosen file's name).
 */
export function nameForChosen(typed: string, previous: string | null, chosen: string): string {
  return typed.trim() === "" || typed === previous ? chosen : typed;
}

/** What an upload answered (201). */
export interface Uploaded {
  artifact: { id: string; name: string; revision: number };
  version: { id: string; number: number; sha256: string; sizeBytes: number; mediaType: string; downloadPath: string };
}

export function uploadedMessage(uploaded: Uploaded): string {
  return `Uploaded version ${uploaded.version.number} of “${uploaded.artifact.name}”.`;
}

/**
 * What the person is told of a refused request, from its status and body: the server's message,
 * code and correlation id; over the size limit, the limit itself. A body that is not the
 * server's (a proxy's error page) still says what status came back.
 */
export function readRefusal(status: number, body: string, headerCorrelationId: string | null = null): ErrorInfo {
  const error = serverError(body);
  const code = typeof error.code === "string" ? error.code : null;
  const correlationId = typeof error.correlationId === "string" ? error.correlationId : headerCorrelationId;
  const maxBytes = error.details && typeof error.details === "object" ? (error.details as { maxBytes?: unknown }).maxBytes : undefined;
  if (status === 413 || typeof maxBytes === "number") {
    const limit = typeof maxBytes === "number" ? `: an artifact is at most ${formatSize(maxBytes)}` : "";
    return { message: `The file is too large${limit}. Nothing was kept.`, code: code ?? "VALIDATION", correlationId };
  }
  if (typeof error.message === "string" && error.message) return { message: error.message, code, correlationId };
  return { message: `The server answered ${status} without saying why.`, code, correlationId };
}

/** The `error` object of the server's JSON error body; empty for any other body. */
function serverError(body: string): { code?: unknown; message?: unknown; details?: unknown; correlationId?: unknown } {
  try {
    const parsed: unknown = JSON.parse(body);
    const error = parsed && typeof parsed === "object" ? (parsed as { error?: unknown }).error : null;
    return error && typeof error === "object" ? error : {};
  } catch {
    // Not JSON: not the server's own answer (a proxy's error page).
    return {};
  }
}

/** "Version 3". */
export function versionLabel(number: number): string {
  return `Version ${number}`;
}

/** A file a run's agent attached: the artifact, and the versions of it that run uploaded. */
export interface RunFile<A, V> {
  artifact: A;
  /** This run's versions, newest first. */
  versions: V[];
  /** The artifact's newest version when it is not this run's (a later run's, or a person's). */
  replacedBy: V | null;
}

/**
 * What a run's Files card lists, from `TaskRun.artifacts`: each artifact one of whose versions
 * the run uploaded, with those versions alone (an artifact's versions are all of them, newest
 * first, whoever uploaded them), in the order the server gave (by name).
 */
export function filesOfRun<A extends { versions: readonly { runId?: string | null }[] }>(
  artifacts: readonly A[],
  runId: string,
): RunFile<A, A["versions"][number]>[] {
  return artifacts.flatMap((artifact) => {
    const versions = artifact.versions.filter((v) => v.runId === runId);
    if (versions.length === 0) return [];
    const newest = artifact.versions[0] ?? null;
    return [{ artifact, versions, replacedBy: newest && newest.runId !== runId ? newest : null }];
  });
}

/** Said under a run's file that has a newer version from elsewhere; nothing when it has none. */
export function replacedNote(replacedBy: { number: number } | null): string | null {
  return replacedBy ? `Since replaced: the latest is version ${replacedBy.number}, not from this run.` : null;
}

/**
 * Whether a run event says its agent attached a file: the control plane's `notice` of it
 * (api/src/runs/mod.rs, `artifact_attached`), which names the version stored.
 */
export function attachedFile(event: { kind: string; data: unknown }): boolean {
  const data = event.data as { version_id?: unknown } | null;
  return event.kind === "notice" && typeof data?.version_id === "string";
}

/** How far a run has got, as its Files card follows it: its status, and the last event saying a file was attached. */
export interface FilesMoment {
  status: string;
  /** That event's sequence; null before one arrived. */
  attached: number | null;
}

/**
 * Whether a run's Files card asks the server again: once it has an answer, when the run's log
 * said a file was attached since it was asked, or its status moved on (a file can be kept though
 * its note failed to be written; what a run attached is all there once it ended).
 */
export function askForFilesAgain(answer: unknown, askedAt: FilesMoment, now: FilesMoment): boolean {
  return answer !== undefined && (now.attached !== askedAt.attached || now.status !== askedAt.status);
}
