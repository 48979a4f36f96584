// What the task page's artifacts (TaskArtifacts.tsx) and the run page's files (RunFiles.tsx) show
// of a version alike: its digest, and its Download button. The bytes go over HTTP with the
// session's token (docs/artifacts.md), since a link could not carry it.
import { useState } from "react";
import { graphql } from "../gql";
import { fetchWithToken } from "../api/http";
import { OFFLINE_CODE, OFFLINE_MESSAGE, type ErrorInfo } from "../api/errors";
import { Action } from "../ui/components";
import { downloadName, readRefusal, shortDigest } from "./artifactsView";

export const ArtifactVersionItemFragmentDoc = graphql(`
  fragment ArtifactVersionItem on ArtifactVersion {
    id
    number
    sha256
    sizeBytes
    mediaType
    runId
    createdAt
    downloadPath
  }
`);

export type Outcome<T> = { ok: true; value: T } | { ok: false; problem: ErrorInfo };

/** A request for bytes, with what the person is told when it fails. */
export async function send<T>(path: string, init: RequestInit, read: (response: Response) => Promise<T>): Promise<Outcome<T>> {
  if (!navigator.onLine) return { ok: false, problem: { message: OFFLINE_MESSAGE, code: OFFLINE_CODE, correlationId: null } };
  let response: Response;
  try {
    response = await fetchWithToken(path, init);
    if (response.ok) return { ok: true, value: await read(response) };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: { message: `Cannot reach the server: ${why}`, code: "NETWORK", correlationId: null } };
  }
  const body = await response.text().catch(() => "");
  return { ok: false, problem: readRefusal(response.status, body, response.headers.get("x-correlation-id")) };
}

// Long enough for the browser to have taken the file from memory before it is let go.
const RELEASE_AFTER_MS = 60_000;

/** Fetches a version's bytes and has the browser save them under the artifact's file name. */
async function download(downloadPath: string, artifactName: string): Promise<Outcome<null>> {
  const fetched = await send(downloadPath, { method: "GET" }, (response) => response.blob());
  if (!fetched.ok) return fetched;
  const url = URL.createObjectURL(fetched.value);
  const link = document.createElement("a");
  link.href = url;
  link.download = downloadName(artifactName);
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), RELEASE_AFTER_MS);
  return { ok: true, value: null };
}

/** A card's downloads: the one under way (one at a time) and why the last one failed. */
export interface Downloads {
  /** The id of the version being downloaded. */
  downloading: string | null;
  problem: ErrorInfo | null;
  save: (version: { id: string; downloadPath: string }, artifactName: string) => Promise<void>;
}

export function useDownloads(): Downloads {
  const [downloading, setDownloading] = useState<string | null>(null);
  const [problem, setProblem] = useState<ErrorInfo | null>(null);
  const save = async (version: { id: string; downloadPath: string }, artifactName: string) => {
    setDownloading(version.id);
    setProblem(null);
    const outcome = await download(version.downloadPath, artifactName);
    setDownloading(null);
    if (!outcome.ok) setProblem(outcome.problem);
  };
  return { downloading, problem, save };
}

/**
 * Downloads one version. The bytes are not in this device's offline copy: a download needs the
 * server, as a write does. The button names its version for a screen reader, since a list has many.
 */
export function DownloadButton({
  version,
  artifactName,
  downloads,
}: {
  version: { id: string; number: number; downloadPath: string };
  artifactName: string;
  downloads: Downloads;
}) {
  return (
    <Action
      busy={downloads.downloading === version.id}
      disabled={downloads.downloading !== null}
      onClick={() => void downloads.save(version, artifactName)}
    >
      Download
      <span className="sr-only">
        {" "}
        version {version.number} of {artifactName}
      </span>
    </Action>
  );
}

/** A version's sha256, short enough to tell versions apart at a glance; the whole one on hover. */
export function Digest({ sha256 }: { sha256: string }) {
  return (
    <code title={sha256} data-testid="version-digest">
      {shortDigest(sha256)}
    </code>
  );
}
