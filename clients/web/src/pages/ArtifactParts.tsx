// What the task page's artifacts (TaskArtifacts.tsx), the run page's files (RunFiles.tsx) and a
// wiki page's attachments show of a stored file alike: its digest, its Download button, and the
// form that uploads one. The bytes go over HTTP with the session's token (docs/artifacts.md),
// since a link or a form could not carry it.
import { useId, useRef, useState, type FormEvent } from "react";
import { graphql } from "../gql";
import { fetchWithToken } from "../api/http";
import { OFFLINE_CODE, OFFLINE_MESSAGE, type ErrorInfo } from "../api/errors";
import { Action, Problems } from "../ui/components";
import { downloadName, formatSize, nameForChosen, readRefusal, shortDigest } from "./artifactsView";

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

/** What an upload stored: what the person is told, and the bytes' size and digest. */
export interface UploadedFile {
  message: string;
  sizeBytes: number;
  sha256: string;
}

/**
 * Uploads a chosen file under the name typed (the file's own name unless another is typed): as
 * the next version of what already has that name, or as a new one.
 */
export function UploadFile({
  label,
  placeholder,
  upload,
  onUploaded,
}: {
  label: string;
  placeholder: string;
  upload: (name: string, file: File) => Promise<Outcome<UploadedFile>>;
  onUploaded: () => void;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  const hint = useId();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<ErrorInfo | null>(null);
  const [uploaded, setUploaded] = useState<UploadedFile | null>(null);

  const choose = (chosen: File | null) => {
    if (chosen) setName(nameForChosen(name, file?.name ?? null, chosen.name));
    setFile(chosen);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setUploading(true);
    setProblem(null);
    setUploaded(null);
    const outcome = await upload(name, file);
    setUploading(false);
    if (!outcome.ok) {
      setProblem(outcome.problem);
      return;
    }
    setUploaded(outcome.value);
    setFile(null);
    setName("");
    if (fileInput.current) fileInput.current.value = "";
    onUploaded();
  };

  return (
    <form onSubmit={submit} className="stack artifact-upload" aria-label={label}>
      <div className="upload-fields">
        <label>
          File <input ref={fileInput} type="file" required onChange={(e) => choose(e.target.files?.[0] ?? null)} />
        </label>
        <label className="grow">
          Name{" "}
          <input required value={name} placeholder={placeholder} aria-describedby={hint} onChange={(e) => setName(e.target.value)} />
        </label>
        <Action type="submit" busy={uploading}>
          Upload
        </Action>
      </div>
      <p className="muted small" id={hint}>
        A relative path, such as {placeholder}. Uploading to a name that is already here adds its next version.
      </p>
      {uploaded && (
        <p className="muted" role="status" data-testid="artifact-uploaded">
          {uploaded.message}{" "}
          <span className="small">
            ({formatSize(uploaded.sizeBytes)}, sha256 <code>{shortDigest(uploaded.sha256)}</code>)
          </span>
        </p>
      )}
      <Problems problems={problem && [problem]} />
    </form>
  );
}
