// A task's artifacts on its page: the files its work produced or needs, each with its versions,
// downloaded and uploaded by a person. The list is GraphQL; the bytes go over HTTP with the
// session's token (docs/artifacts.md), since a link or a form could not carry it.
import { useQuery } from "urql";
import { graphql } from "../gql";
import { ErrorBox, Loading, Problems, Table, When, useOnline } from "../ui/components";
import { Link } from "../ui/router";
import { Digest, DownloadButton, UploadFile, send, useDownloads, type Outcome } from "./ArtifactParts";
import { formatSize, mediaTypeOf, uploadPath, uploadedMessage, versionLabel, type Uploaded } from "./artifactsView";

// Half the server's largest page: it counts each artifact's versions as ten, and a page of 100
// with them would cost more than one query may (limits.max_complexity). A task with more says so.
const TaskArtifactsQuery = graphql(`
  query TaskArtifacts($projectId: ID!, $taskId: ID!) {
    artifacts(projectId: $projectId, taskId: $taskId, first: 50) {
      pageInfo {
        hasNextPage
      }
      nodes {
        id
        name
        revision
        updatedAt
        latest {
          ...ArtifactVersionItem
        }
        versions {
          ...ArtifactVersionItem
        }
      }
    }
  }
`);

function upload(place: { projectId: string; taskId: string; name: string }, file: File): Promise<Outcome<Uploaded>> {
  const init = { method: "POST", headers: { "Content-Type": mediaTypeOf(file) }, body: file };
  return send(uploadPath(place), init, (response) => response.json() as Promise<Uploaded>);
}

export function TaskArtifacts({ projectId, taskId }: { projectId: string; taskId: string }) {
  const [{ data, fetching, error }, reexecute] = useQuery({ query: TaskArtifactsQuery, variables: { projectId, taskId } });
  const online = useOnline();
  const downloads = useDownloads();
  const artifacts = data?.artifacts.nodes ?? [];

  return (
    <article className="card stack" aria-labelledby="artifacts-title" data-testid="task-artifacts">
      <h2 id="artifacts-title">Artifacts</h2>
      {!online && <p className="muted small">Offline: uploading and downloading need the server.</p>}
      <ErrorBox error={error} />
      <Problems problems={downloads.problem && [downloads.problem]} />
      {fetching && !data ? (
        <Loading what="the artifacts" />
      ) : (
        <ul className="plain artifacts">
          {artifacts.map((artifact) => (
            <li key={artifact.id} className="stack artifact" data-artifact={artifact.name} data-revision={artifact.revision}>
              <div className="inline spread">
                <div className="stack tight">
                  <code className="artifact-name">{artifact.name}</code>
                  {artifact.latest && (
                    <p className="facts small muted">
                      <span data-testid="artifact-version">{versionLabel(artifact.latest.number)}</span>
                      <span>{formatSize(artifact.latest.sizeBytes)}</span>
                      <span>
                        updated <When at={artifact.updatedAt} />
                      </span>
                    </p>
                  )}
                </div>
                {artifact.latest && <DownloadButton version={artifact.latest} artifactName={artifact.name} downloads={downloads} />}
              </div>
              <details>
                <summary>{artifact.revision === 1 ? "1 version" : `All ${artifact.revision} versions`}</summary>
                <Table
                  rows={artifact.versions}
                  rowKey={(v) => v.id}
                  rowData={(v) => ({ "data-version": String(v.number) })}
                  columns={[
                    { head: "Version", cell: (v) => v.number },
                    { head: "Size", cell: (v) => formatSize(v.sizeBytes) },
                    { head: "sha256", cell: (v) => <Digest sha256={v.sha256} /> },
                    { head: "Type", cell: (v) => v.mediaType },
                    {
                      head: "Uploaded",
                      cell: (v) => (
                        <>
                          <When at={v.createdAt} />
                          {v.runId && (
                            <>
                              {" "}
                              by <Link href={`/runs/${v.runId}`}>a run</Link>
                            </>
                          )}
                        </>
                      ),
                    },
                    { head: "", cell: (v) => <DownloadButton version={v} artifactName={artifact.name} downloads={downloads} /> },
                  ]}
                />
              </details>
            </li>
          ))}
          {data && artifacts.length === 0 && <li className="muted">No artifacts yet.</li>}
        </ul>
      )}
      {data?.artifacts.pageInfo.hasNextPage && <p className="muted small">Showing the first {artifacts.length} artifacts.</p>}
      <UploadFile
        label="Upload an artifact"
        placeholder="reports/summary.md"
        upload={async (name, file) => {
          const outcome = await upload({ projectId, taskId, name }, file);
          return outcome.ok ? { ok: true, value: { message: uploadedMessage(outcome.value), ...outcome.value.version } } : outcome;
        }}
        onUploaded={() => reexecute({ requestPolicy: "network-only" })}
      />
    </article>
  );
}
