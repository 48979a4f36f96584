// The files a run's agent attached (its `attach_artifact` run tool, docs/artifacts.md): each by
// name, with the versions this run uploaded, downloaded as on the task page (ArtifactParts.tsx).
// Asked again when the run's log says a file was attached, and as the run's status moves on.
import { useMemo } from "react";
import { useQuery } from "urql";
import { graphql } from "../gql";
import type { RunStatus } from "../gql/graphql";
import { ErrorBox, Loading, Problems, When, useOnline } from "../ui/components";
import { Digest, DownloadButton, useDownloads } from "./ArtifactParts";
import { askForFilesAgain, filesOfRun, formatSize, replacedNote, versionLabel } from "./artifactsView";
import { useAskAgainAsRunMoves } from "./askAgain";

const RunFilesQuery = graphql(`
  query RunFiles($runId: ID!) {
    node(id: $runId) {
      __typename
      ... on TaskRun {
        id
        artifacts {
          id
          name
          versions {
            ...ArtifactVersionItem
          }
        }
      }
    }
  }
`);

/** `attached`: the sequence of the run's last event saying a file was attached (`attachedFile`), if any. */
export function RunFilesCard({ runId, status, attached }: { runId: string; status: RunStatus; attached: number | null }) {
  const [{ data, fetching, error }, refetch] = useQuery({ query: RunFilesQuery, variables: { runId } });
  const now = useMemo(() => ({ status, attached }), [status, attached]);
  useAskAgainAsRunMoves(data, fetching, now, askForFilesAgain, refetch);
  const online = useOnline();
  const downloads = useDownloads();
  const artifacts = data?.node.__typename === "TaskRun" ? data.node.artifacts : [];
  const files = filesOfRun(artifacts, runId);

  return (
    <article className="card stack run-files" aria-labelledby="run-files-title" data-testid="run-files">
      <h2 id="run-files-title">Files</h2>
      {!online && files.length > 0 && <p className="muted small">Offline: downloading needs the server.</p>}
      <ErrorBox error={error} />
      <Problems problems={downloads.problem && [downloads.problem]} />
      {fetching && !data ? (
        <Loading what="the files" />
      ) : files.length === 0 ? (
        data && (
          <p className="muted" data-testid="run-files-empty">
            No files attached by this run.
          </p>
        )
      ) : (
        <ul className="plain artifacts" aria-labelledby="run-files-title">
          {files.map(({ artifact, versions, replacedBy }) => {
            const replaced = replacedNote(replacedBy);
            return (
              <li key={artifact.id} className="stack tight artifact" data-artifact={artifact.name}>
                <code className="artifact-name">{artifact.name}</code>
                <ul className="plain stack tight">
                  {versions.map((version) => (
                    <li key={version.id} className="inline spread" data-version={version.number}>
                      <span className="facts small muted">
                        <span data-testid="artifact-version">{versionLabel(version.number)}</span>
                        <span data-testid="version-size">{formatSize(version.sizeBytes)}</span>
                        <span>
                          sha256 <Digest sha256={version.sha256} />
                        </span>
                        <span>
                          <When at={version.createdAt} />
                        </span>
                      </span>
                      <DownloadButton version={version} artifactName={artifact.name} downloads={downloads} />
                    </li>
                  ))}
                </ul>
                {replaced && (
                  <p className="muted small" data-testid="run-file-replaced">
                    {replaced}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </article>
  );
}
