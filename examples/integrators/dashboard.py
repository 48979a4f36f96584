"""A small dashboard over Agent Control Center's GraphQL API, in Python with gql (docs/integrators.md).

It prints one JSON object -- how the runs of a workspace or project ended, by agent, and what they
used this month by agent -- and, with ``--follow N``, then prints the next N run updates of a
project as JSON lines as they happen.

    ACC_URL=https://acc.example.com ACC_TOKEN=acc_pat_... python dashboard.py <workspace-or-project-id> [--follow N]

Needs ``gql[websockets]`` (4.x).
"""

import asyncio
import json
import os
import sys
from datetime import datetime, timezone

from gql import Client, gql
from gql.transport.websockets import WebsocketsTransport

COUNTS = "runs finished medianDurationMs byStatus { status count }"
DASHBOARD = gql(
    f"""
    query Dashboard($filter: RunFilter!, $scope: ID!, $from: DateTime!, $to: DateTime!) {{
      runStatistics(filter: $filter) {{ total {{ {COUNTS} }} byAgent {{ agent {{ name }} counts {{ {COUNTS} }} }} }}
      usageSummary(scopeId: $scope, from: $from, to: $to, groupBy: AGENT) {{
        total {{ inputTokens outputTokens tokens costUsd }}
        groups {{ label totals {{ inputTokens outputTokens tokens }} }}
      }}
    }}"""
)
RUN_UPDATED = gql("subscription($p: ID!) { runUpdated(projectId: $p) { id status } }")


def month(now: datetime) -> tuple[str, str]:
    """This UTC month, as the `from` and `to` of a summary."""
    start = datetime(now.year, now.month, 1, tzinfo=timezone.utc)
    end = datetime(now.year + now.month // 12, now.month % 12 + 1, 1, tzinfo=timezone.utc)
    return start.isoformat(), end.isoformat()


NODE = gql("query($id: ID!) { node(id: $id) { __typename } }")


async def main(scope_id: str, follow: int) -> None:
    url = os.environ.get("ACC_URL", "http://127.0.0.1:8080").replace("http", "ws", 1) + "/graphql/ws"
    # One socket (graphql-transport-ws) for queries and subscriptions; the token goes in
    # `connection_init`.
    transport = WebsocketsTransport(
        url=url,
        init_payload={"authorization": f"Bearer {os.environ['ACC_TOKEN']}"},
        subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL],
    )
    async with Client(transport=transport) as session:
        # A project's runs, or a whole workspace's: `node` says which the id names.
        node = (await session.execute(NODE, variable_values={"id": scope_id}))["node"]
        run_filter = {"projectId": scope_id} if node["__typename"] == "Project" else {"workspaceId": scope_id}
        start, end = month(datetime.now(timezone.utc))
        variables = {"filter": run_filter, "scope": scope_id, "from": start, "to": end}
        data = await session.execute(DASHBOARD, variable_values=variables)
        stats, usage = data["runStatistics"], data["usageSummary"]
        total = usage["total"]
        print(
            json.dumps(
                {
                    "runs": stats["total"]["runs"],
                    "finished": stats["total"]["finished"],
                    "byStatus": {s["status"]: s["count"] for s in stats["total"]["byStatus"]},
                    "byAgent": [
                        {"agent": (a["agent"] or {}).get("name"), "runs": a["counts"]["runs"]} for a in stats["byAgent"]
                    ],
                    "tokens": total["inputTokens"] + total["outputTokens"],
                    "tokensAre": total["tokens"],
                    "costUsd": total["costUsd"],
                    "tokensByAgent": {
                        g["label"]: g["totals"]["inputTokens"] + g["totals"]["outputTokens"] for g in usage["groups"]
                    },
                }
            ),
            flush=True,
        )
        if follow:
            print(json.dumps({"following": scope_id}), flush=True)
            seen = 0
            async for update in session.subscribe(RUN_UPDATED, variable_values={"p": scope_id}):
                run = update["runUpdated"]
                print(json.dumps({"run": run["id"], "status": run["status"]}), flush=True)
                seen += 1
                if seen >= follow:
                    break


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args or "ACC_TOKEN" not in os.environ:
        sys.exit("usage: ACC_URL=... ACC_TOKEN=... python dashboard.py <workspace-or-project-id> [--follow N]")
    follow = int(args[2]) if len(args) > 2 and args[1] == "--follow" else 0
    asyncio.run(main(args[0], follow))
