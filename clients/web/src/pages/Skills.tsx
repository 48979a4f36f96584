// Skills: packages the organization imported (an archive and, optionally, its minisign
// signature), each version with its review state and what its signature check found; a
// quarantined one is sent for review or approved by an administrator with a reason; an approved
// one is activated in a scope (with scripts, once another person approves) or revoked; what
// applies in a scope, to switch off; and the publisher keys the organization trusts.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import type { ApprovalDecision, SkillVersionItemFragment } from "../gql/graphql";
import type { ErrorInfo } from "../api/errors";
import { Action, Badge, ErrorBox, Loading, Problems, When, usePageTitle } from "../ui/components";
import { Link } from "../ui/router";
import { send } from "./ArtifactParts";
import { useScopes } from "./Memory";
import { ScopeSelect } from "./ScopeSelect";
import type { Scope } from "./scopes";
import { importedMessage, signatureHeader, signatureText, skillScopes } from "./skillsView";

export const SkillVersionItemFragmentDoc = graphql(`
  fragment SkillVersionItem on SkillVersion {
    id
    number
    description
    digest
    hasScripts
    reviewState
    reviewReason
    signatureStatus
    signerKeyId
    createdAt
    files {
      path
    }
  }
`);

// Twenty skills at a time (a literal, so the query's cost is known); "Show more" fetches the next.
const SkillsQuery = graphql(`
  query Skills($after: String) {
    skills(first: 20, after: $after) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        name
        versions {
          ...SkillVersionItem
        }
      }
    }
  }
`);

const SkillPublisherKeysQuery = graphql(`
  query SkillPublisherKeys {
    skillPublisherKeys {
      id
      name
      keyId
      revokedAt
    }
  }
`);

const ActivationsQuery = graphql(`
  query SkillActivations($scopeId: ID!) {
    skillActivations(scopeId: $scopeId) {
      id
      status
      scopeId
      version {
        id
        number
        skillId
        description
      }
    }
  }
`);

const ReviewMutation = graphql(`
  mutation ReviewSkillVersion($versionId: ID!, $decision: ApprovalDecision!, $reason: String) {
    reviewSkillVersion(versionId: $versionId, decision: $decision, reason: $reason) {
      ...SkillVersionItem
    }
  }
`);

const RequestReviewMutation = graphql(`
  mutation RequestSkillReview($versionId: ID!) {
    requestSkillReview(versionId: $versionId) {
      ...SkillVersionItem
    }
  }
`);

const RevokeMutation = graphql(`
  mutation RevokeSkillVersion($versionId: ID!, $reason: String) {
    revokeSkillVersion(versionId: $versionId, reason: $reason) {
      ...SkillVersionItem
    }
  }
`);

const ActivateMutation = graphql(`
  mutation ActivateSkill($versionId: ID!, $scopeId: ID!) {
    activateSkill(versionId: $versionId, scopeId: $scopeId) {
      activation {
        id
        status
      }
      approval {
        id
      }
    }
  }
`);

const DeactivateMutation = graphql(`
  mutation DeactivateSkill($activationId: ID!) {
    deactivateSkill(activationId: $activationId) {
      id
      status
    }
  }
`);

const TrustKeyMutation = graphql(`
  mutation TrustSkillPublisherKey($name: String!, $publicKey: String!) {
    trustSkillPublisherKey(name: $name, publicKey: $publicKey) {
      id
      name
      keyId
      revokedAt
    }
  }
`);

const RevokeKeyMutation = graphql(`
  mutation RevokeSkillPublisherKey($keyId: ID!) {
    revokeSkillPublisherKey(keyId: $keyId) {
      id
      revokedAt
    }
  }
`);

const STATES: Record<string, string> = {
  QUARANTINED: "Quarantined",
  IN_REVIEW: "In review",
  APPROVED: "Approved",
  REJECTED: "Rejected",
  REVOKED: "Revoked",
};

export function Skills() {
  usePageTitle("Skills");
  const [{ data: keys, error }, refetchKeys] = useQuery({ query: SkillPublisherKeysQuery });
  const { scopes: readable } = useScopes();
  const scopes = skillScopes(readable);
  // The pages shown, by the cursor each starts after; a change reloads every one of them.
  const [listing, setListing] = useState<{ generation: number; afters: (string | null)[] }>({ generation: 0, afters: [null] });
  const again = () => {
    setListing(({ generation, afters }) => ({ generation: generation + 1, afters }));
    refetchKeys({ requestPolicy: "network-only" });
  };
  const more = (cursor: string) => setListing(({ generation, afters }) => ({ generation, afters: [...afters, cursor] }));
  return (
    <section className="stack">
      <h1>Skills</h1>
      <p className="muted">
        A package no trusted key signed is quarantined until an administrator approves it; only approved versions are activated, and one with scripts
        only once another person approves it in <Link href="/approvals">Approvals</Link>.
      </p>
      <ErrorBox error={error} />
      <Import onImported={again} />
      <ul className="stack plain" aria-label="Skills">
        {listing.afters.map((after, index) => (
          <SkillsPage
            key={`${listing.generation}-${after}`}
            after={after}
            first={index === 0}
            last={index === listing.afters.length - 1}
            scopes={scopes}
            onChanged={again}
            onMore={more}
          />
        ))}
      </ul>
      <Applying scopes={scopes} />
      <Keys keys={keys?.skillPublisherKeys ?? []} onChanged={again} />
    </section>
  );
}

/** One page of skills (those after the cursor `after`), and "Show more" on the last one. */
function SkillsPage({
  after,
  first,
  last,
  scopes,
  onChanged,
  onMore,
}: {
  after: string | null;
  first: boolean;
  last: boolean;
  scopes: Scope[];
  onChanged: () => void;
  onMore: (cursor: string) => void;
}) {
  const [{ data, fetching, error }] = useQuery({ query: SkillsQuery, variables: { after }, requestPolicy: "network-only" });
  const page = data?.skills;
  return (
    <>
      <ErrorBox error={error} />
      {fetching && !data && <Loading what="skills" />}
      {first && page?.nodes.length === 0 && <p className="muted">No skill imported yet.</p>}
      {page?.nodes.map((skill) => (
        <li key={skill.id} className="card stack" data-skill={skill.name}>
          <h2>{skill.name}</h2>
          <ul className="stack plain" aria-label={`Versions of ${skill.name}`}>
            {skill.versions.map((version) => (
              <Version key={version.id} skillName={skill.name} version={version} scopes={scopes} onChanged={onChanged} />
            ))}
          </ul>
        </li>
      ))}
      {last && page?.pageInfo.hasNextPage && page.pageInfo.endCursor && (
        <li>
          <button type="button" onClick={() => onMore(page.pageInfo.endCursor as string)}>
            Show more skills
          </button>
        </li>
      )}
    </>
  );
}

/** An archive, and its `.minisig` if it has one, sent to `POST /v1/skills`. */
function Import({ onImported }: { onImported: () => void }) {
  const [archive, setArchive] = useState<File | null>(null);
  const [signature, setSignature] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ message: string } | { problem: ErrorInfo } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!archive) return;
    setBusy(true);
    const headers: Record<string, string> = {};
    if (signature) headers["Skill-Signature"] = signatureHeader(await signature.text());
    const sent = await send("/v1/skills", { method: "POST", body: archive, headers }, (r) => r.json());
    setBusy(false);
    setOutcome(sent.ok ? { message: importedMessage(sent.value) } : { problem: sent.problem });
    if (sent.ok) onImported();
  };
  return (
    <form className="card stack" aria-label="Import a skill" onSubmit={submit}>
      <h2>Import a skill</h2>
      <label>
        Package (.zip or .tar.gz)
        <input type="file" accept=".zip,.tar.gz,.tgz,application/zip,application/gzip" onChange={(e) => setArchive(e.target.files?.[0] ?? null)} />
      </label>
      <label>
        Signature (.minisig, optional)
        <input type="file" accept=".minisig" onChange={(e) => setSignature(e.target.files?.[0] ?? null)} />
      </label>
      <Action type="submit" busy={busy} disabled={!archive}>
        Import
      </Action>
      {outcome && "message" in outcome && (
        <p className="notice" role="status" data-testid="skill-imported">
          {outcome.message}
        </p>
      )}
      <Problems problems={outcome && "problem" in outcome ? [outcome.problem] : null} />
    </form>
  );
}

function Version({
  skillName,
  version,
  scopes,
  onChanged,
}: {
  skillName: string;
  version: SkillVersionItemFragment;
  scopes: { id: string; label: string; path: string[] }[];
  onChanged: () => void;
}) {
  const [reviewed, review] = useMutation(ReviewMutation);
  const [asked, ask] = useMutation(RequestReviewMutation);
  const [revoked, revoke] = useMutation(RevokeMutation);
  const [activated, activate] = useMutation(ActivateMutation);
  const [reason, setReason] = useState("");
  const [scopeId, setScopeId] = useState("");
  const scope = scopes.find((s) => s.id === scopeId) ?? scopes[0];
  const decide = async (decision: ApprovalDecision) => {
    const result = await review({ versionId: version.id, decision, reason: reason || null });
    if (result.data) onChanged();
  };
  const open = version.reviewState === "QUARANTINED" || version.reviewState === "IN_REVIEW";
  const waiting = activated.data?.activateSkill.approval;
  return (
    <li className="stack" data-version={version.number}>
      <p className="inline">
        <strong>
          {skillName} {version.number}
        </strong>
        <Badge accent={version.reviewState === "APPROVED"}>{STATES[version.reviewState] ?? version.reviewState}</Badge>
        {version.hasScripts && <Badge>Has scripts</Badge>}
        <span className="muted small">
          {signatureText(version.signatureStatus, version.signerKeyId)} · imported <When at={version.createdAt} />
        </span>
      </p>
      <p>{version.description}</p>
      {version.reviewReason && <p className="muted small">Review: {version.reviewReason}</p>}
      <details>
        <summary>
          {version.files.length} files · <code>{version.digest.slice(0, 19)}…</code>
        </summary>
        <ul className="plain small">
          {version.files.map((f) => (
            <li key={f.path}>
              <code>{f.path}</code>
            </li>
          ))}
        </ul>
      </details>
      {open && (
        <div className="inline">
          <label>
            Reason
            <input value={reason} onChange={(e) => setReason(e.target.value)} />
          </label>
          <Action busy={reviewed.fetching} onClick={() => decide("APPROVE")} className="primary">
            Approve
          </Action>
          <Action busy={reviewed.fetching} onClick={() => decide("DENY")} className="danger">
            Reject
          </Action>
          {version.reviewState === "QUARANTINED" && (
            <Action busy={asked.fetching} onClick={() => ask({ versionId: version.id })}>
              Ask for a review
            </Action>
          )}
        </div>
      )}
      {version.reviewState === "APPROVED" && (
        <div className="inline">
          <ScopeSelect label="Activate in" scopes={scopes} value={scope?.id ?? ""} onChange={setScopeId} />
          <Action
            busy={activated.fetching}
            disabled={!scope}
            onClick={() => scope && activate({ versionId: version.id, scopeId: scope.id }, { additionalTypenames: ["SkillActivation", "Approval"] })}
          >
            Activate
          </Action>
          <Action busy={revoked.fetching} className="danger" onClick={async () => (await revoke({ versionId: version.id, reason: reason || null })).data && onChanged()}>
            Revoke
          </Action>
        </div>
      )}
      {activated.data && (
        <p className="notice" role="status" data-testid="skill-activated">
          {waiting ? (
            <>
              Waiting for another person's approval in <Link href="/approvals">Approvals</Link>: it has scripts.
            </>
          ) : (
            "Active."
          )}
        </p>
      )}
      <ErrorBox error={reviewed.error ?? asked.error ?? revoked.error ?? activated.error} />
    </li>
  );
}

/** What applies in a scope: its own activations and those above it. */
function Applying({ scopes }: { scopes: { id: string; label: string; path: string[] }[] }) {
  const [scopeId, setScopeId] = useState("");
  const scope = scopes.find((s) => s.id === scopeId) ?? scopes[0];
  const [{ data, error }] = useQuery({ query: ActivationsQuery, variables: { scopeId: scope?.id ?? "" }, pause: !scope });
  const [switched, deactivate] = useMutation(DeactivateMutation);
  return (
    <section className="card stack" aria-labelledby="skills-applying">
      <h2 id="skills-applying">What applies</h2>
      <ScopeSelect label="In" scopes={scopes} value={scope?.id ?? ""} onChange={setScopeId} />
      <ErrorBox error={error ?? switched.error} />
      {data?.skillActivations.length === 0 && <p className="muted">No skill is active here.</p>}
      <ul className="plain stack" aria-label="Active skills">
        {data?.skillActivations.map((a) => (
          <li key={a.id} className="inline">
            <span>
              {a.version.description} (version {a.version.number})
            </span>
            <Badge accent={a.status === "ACTIVE"}>{a.status === "ACTIVE" ? "Active" : "Waiting for approval"}</Badge>
            {a.scopeId !== scope?.id && <span className="muted small">from {scopes.find((s) => s.id === a.scopeId)?.label ?? "above"}</span>}
            <Action busy={switched.fetching} onClick={() => deactivate({ activationId: a.id }, { additionalTypenames: ["SkillActivation"] })}>
              Switch off
            </Action>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Keys({ keys, onChanged }: { keys: readonly { id: string; name: string; keyId: string; revokedAt?: string | null }[]; onChanged: () => void }) {
  const [trusted, trust] = useMutation(TrustKeyMutation);
  const [revoked, revoke] = useMutation(RevokeKeyMutation);
  const [name, setName] = useState("");
  const [publicKey, setPublicKey] = useState("");
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await trust({ name, publicKey });
    if (result.data) {
      setName("");
      setPublicKey("");
      onChanged();
    }
  };
  return (
    <section className="card stack" aria-labelledby="skills-keys">
      <h2 id="skills-keys">Trusted publisher keys</h2>
      <ul className="plain stack" aria-label="Publisher keys">
        {keys.map((k) => (
          <li key={k.id} className="inline">
            <strong>{k.name}</strong> <code>{k.keyId}</code>
            {k.revokedAt ? (
              <Badge>Revoked</Badge>
            ) : (
              <Action busy={revoked.fetching} className="danger" onClick={async () => (await revoke({ keyId: k.id })).data && onChanged()}>
                Revoke
              </Action>
            )}
          </li>
        ))}
      </ul>
      <form className="stack" aria-label="Trust a publisher key" onSubmit={submit}>
        <label>
          Publisher
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <label>
          Public key (the minisign .pub file)
          <textarea value={publicKey} onChange={(e) => setPublicKey(e.target.value)} rows={3} required />
        </label>
        <Action type="submit" busy={trusted.fetching}>
          Trust this key
        </Action>
      </form>
      <ErrorBox error={trusted.error ?? revoked.error} />
    </section>
  );
}
