// What an approval asks, in words, for every place that shows one (the inbox, Home, a
// notification): an agent's action in its run, a person's wiki revision to publish, or a skill
// with scripts a person activated.

export interface ApprovalShape {
  id: string;
  subject: "RUN_ACTION" | "WIKI_PUBLICATION" | "SKILL_ACTIVATION";
  action: string;
  requestedBy?: { email: string } | null;
  run?: {
    id: string;
    task: { id: string; title: string; project?: { name: string } | null };
    agent?: { name: string } | null;
  } | null;
  wikiRevision?: { number: number; title: string; path: string } | null;
  wikiPage?: { id: string } | null;
}

export interface ApprovalText {
  /** Who asks: the agent, or the person. */
  who: string;
  /** What they ask to do, after `who`. */
  asks: string;
  /** What it is about, for a line of context: the task, or the wiki page. */
  about: string;
  /** Where that is. */
  href: string | null;
}

export function describeApproval(approval: ApprovalShape): ApprovalText {
  if (approval.subject === "SKILL_ACTIVATION") {
    return { who: approval.requestedBy?.email ?? "Someone", asks: `asks to ${approval.action}`, about: "skills", href: "/skills" };
  }
  if (approval.subject === "WIKI_PUBLICATION") {
    const revision = approval.wikiRevision;
    return {
      who: approval.requestedBy?.email ?? "Someone",
      asks: revision ? `asks to publish revision ${revision.number} of “${revision.title}”` : "asks to publish a wiki revision",
      about: revision ? `wiki page ${revision.path}` : "a wiki page you can no longer read",
      href: approval.wikiPage ? `/wiki/pages/${approval.wikiPage.id}` : null,
    };
  }
  const run = approval.run;
  return {
    who: run?.agent?.name ?? "An agent",
    asks: `wants to run “${approval.action}”`,
    about: run ? run.task.title : "a run you can no longer read",
    href: run ? `/tasks/${run.task.id}` : null,
  };
}
