// A peer for the acc benchmarks: the same `tasks(first: 50)` page and a `runEvents`-like subscription, written the
// way a typical single-process Node.js GraphQL server is — graphql-yoga, graphql-ws, better-sqlite3 and DataLoader —
// reading acc's own SQLite database. It is neither tuned nor handicapped: library defaults throughout.
//
// Environment:
//   PEER_DATABASE  path to acc's `acc.db` (acc has already put it in WAL mode)
//   PEER_PORT      port to listen on, 127.0.0.1 only; 0 (the default) picks a free one
// Once listening it prints one line: `PEER: http://127.0.0.1:PORT/graphql`.
//
// Besides GraphQL over HTTP and graphql-ws (subprotocol graphql-transport-ws) on /graphql, `POST /publish` takes a run
// event `{"runId", "sequence", "data"}` or an array of them, stores each in `peer_run_events` (one transaction per
// request) and publishes it to the run's subscribers: what acc's connector gateway does with the events it receives.

import { createServer } from 'node:http';

import Database from 'better-sqlite3';
import DataLoader from 'dataloader';
import { GraphQLError, GraphQLScalarType } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { createPubSub, createSchema, createYoga } from 'graphql-yoga';
import { WebSocketServer } from 'ws';

const databasePath = process.env.PEER_DATABASE;
if (!databasePath) {
  console.error('PEER_DATABASE must name the acc.db to serve');
  process.exit(2);
}
const port = Number(process.env.PEER_PORT ?? 0);

const db = new Database(databasePath, { fileMustExist: true });
// The same pragmas as acc's connections (api/src/db.rs); WAL is a property of the file and already set.
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 10000');
db.pragma('foreign_keys = ON');
db.exec(`CREATE TABLE IF NOT EXISTS peer_run_events (
  run_id TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (run_id, sequence)
)`);

// acc stores UUIDs as 16-byte blobs.
const uuidOf = (blob) => {
  const hex = blob.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
const blobOf = (uuid) => Buffer.from(uuid.replaceAll('-', ''), 'hex');

// acc's global ids (api/src/ids.rs): base64url without padding of `Kind:uuid`.
const globalId = (kind, uuid) => Buffer.from(`${kind}:${uuid}`).toString('base64url');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const decodeId = (raw, kind) => {
  const [found, uuid] = Buffer.from(raw, 'base64url').toString().split(':');
  if (found !== kind || !UUID.test(uuid ?? '')) {
    throw new GraphQLError(`\`${raw}\` is not a valid ${kind} id`, { extensions: { code: 'VALIDATION' } });
  }
  return uuid;
};

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

const placeholders = (n) => Array(n).fill('?').join(', ');

const selectProject = db.prepare('SELECT * FROM projects WHERE id = ?');
const selectTaskPage = db.prepare('SELECT * FROM tasks WHERE project_id = ? ORDER BY id LIMIT ?');
const selectStoredEvents = db.prepare('SELECT sequence, data FROM peer_run_events WHERE run_id = ? ORDER BY sequence');
const insertEvent = db.prepare('INSERT INTO peer_run_events (run_id, sequence, data) VALUES (?, ?, ?)');
const insertEvents = db.transaction((events) => {
  for (const event of events) {
    insertEvent.run(event.runId, event.sequence, JSON.stringify(event.data));
  }
});

// Per request, as acc's loaders are: a page's assignees in one query, its dependencies in two. Keys are UUID strings
// (blobs are not equal by value); `tenant` is the organization the request reads, set by the `tasks` resolver.
function createLoaders(tenant) {
  return {
    users: new DataLoader(async (ids) => {
      const rows = db
        .prepare(`SELECT * FROM users WHERE id IN (${placeholders(ids.length)}) AND organization_id = ?`)
        .all(...ids.map(blobOf), tenant.organizationId);
      const byId = new Map(rows.map((row) => [uuidOf(row.id), row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    dependencies: new DataLoader(async (taskIds) => {
      const edges = db
        .prepare(
          `SELECT * FROM task_dependencies WHERE task_id IN (${placeholders(taskIds.length)})
           AND organization_id = ? ORDER BY depends_on_task_id`,
        )
        .all(...taskIds.map(blobOf), tenant.organizationId);
      const wanted = [...new Set(edges.map((edge) => uuidOf(edge.depends_on_task_id)))];
      const tasks = wanted.length
        ? db.prepare(`SELECT * FROM tasks WHERE id IN (${placeholders(wanted.length)})`).all(...wanted.map(blobOf))
        : [];
      const taskById = new Map(tasks.map((task) => [uuidOf(task.id), task]));
      const byTask = new Map(taskIds.map((id) => [id, []]));
      for (const edge of edges) {
        const dependency = taskById.get(uuidOf(edge.depends_on_task_id));
        if (dependency) byTask.get(uuidOf(edge.task_id)).push(dependency);
      }
      return taskIds.map((id) => byTask.get(id));
    }),
  };
}

// Present, not verified: the peer trusts any bearer token, where acc checks the session, the user and the roles it
// names. That favours the peer, and is said so in docs/benchmarks.md.
function requireBearer(context) {
  const authorization = context.request?.headers.get('authorization') ?? context.connectionParams?.authorization;
  if (typeof authorization !== 'string' || !authorization.startsWith('Bearer ')) {
    throw new GraphQLError('authentication required', { extensions: { code: 'UNAUTHENTICATED' } });
  }
}

const pubsub = createPubSub();

// A run's stored events first, then live ones, as acc's `runEvents` does.
async function* storedThenLive(runId) {
  const live = pubsub.subscribe('runEvents', runId);
  // A Repeater starts listening at its first next(). Ask for it before reading the stored events: better-sqlite3 reads
  // synchronously, so no event can be published in between and none is missed or repeated.
  let next = live.next();
  try {
    for (const row of selectStoredEvents.all(runId)) {
      yield { sequence: row.sequence, data: JSON.parse(row.data) };
    }
    for (;;) {
      const { value, done } = await next;
      if (done) return;
      yield value;
      next = live.next();
    }
  } finally {
    await live.return();
  }
}

const schema = createSchema({
  typeDefs: /* GraphQL */ `
    scalar JSON

    type Query {
      "Tasks of a project, in creation order."
      tasks(projectId: ID!, first: Int): TaskConnection!
    }

    type Subscription {
      "A run's stored events, then live ones."
      runEvents(runId: ID!): RunEvent!
    }

    type TaskConnection {
      pageInfo: PageInfo!
      edges: [TaskEdge!]!
    }

    type PageInfo {
      hasPreviousPage: Boolean!
      hasNextPage: Boolean!
      startCursor: String
      endCursor: String
    }

    type TaskEdge {
      node: Task!
      cursor: String!
    }

    type Task {
      id: ID!
      title: String!
      assignee: User
      "Tasks that must be done before this one."
      dependencies: [Task!]!
    }

    type User {
      id: ID!
      email: String!
    }

    type RunEvent {
      sequence: Int!
      data: JSON!
    }
  `,
  resolvers: {
    JSON: new GraphQLScalarType({
      name: 'JSON',
      serialize: (value) => value,
      parseValue: (value) => value,
    }),
    Query: {
      tasks: (_root, { projectId, first }, context) => {
        requireBearer(context);
        const size = first ?? DEFAULT_PAGE_SIZE;
        if (size < 0 || size > MAX_PAGE_SIZE) {
          throw new GraphQLError(`\`first\` must be between 0 and ${MAX_PAGE_SIZE}`, {
            extensions: { code: 'VALIDATION' },
          });
        }
        const project = selectProject.get(blobOf(decodeId(projectId, 'Project')));
        if (!project) {
          throw new GraphQLError('project not found', { extensions: { code: 'NOT_FOUND' } });
        }
        context.tenant.organizationId = project.organization_id;
        // One row more than asked, to know whether there is a next page, as acc's keyset pagination does; a cursor is
        // the base64url of the id's 16 bytes, as acc's (api/src/graphql/connection.rs).
        const rows = selectTaskPage.all(project.id, size + 1);
        const edges = rows.slice(0, size).map((task) => ({ node: task, cursor: task.id.toString('base64url') }));
        return {
          edges,
          pageInfo: {
            hasPreviousPage: false,
            hasNextPage: rows.length > size,
            startCursor: edges[0]?.cursor ?? null,
            endCursor: edges.at(-1)?.cursor ?? null,
          },
        };
      },
    },
    Task: {
      id: (task) => globalId('Task', uuidOf(task.id)),
      assignee: (task, _args, context) =>
        task.assignee_user_id ? context.loaders.users.load(uuidOf(task.assignee_user_id)) : null,
      dependencies: (task, _args, context) => context.loaders.dependencies.load(uuidOf(task.id)),
    },
    User: {
      id: (user) => globalId('User', uuidOf(user.id)),
    },
    Subscription: {
      runEvents: {
        subscribe: (_root, { runId }) => storedThenLive(runId),
        resolve: (event) => event,
      },
    },
  },
});

const yoga = createYoga({
  schema,
  context: () => {
    const tenant = { organizationId: null };
    return { tenant, loaders: createLoaders(tenant) };
  },
});

async function publish(request, response) {
  try {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString());
    const events = Array.isArray(body) ? body : [body];
    for (const event of events) {
      if (typeof event?.runId !== 'string' || !Number.isInteger(event.sequence) || event.data === undefined) {
        throw new Error('an event is {"runId": string, "sequence": integer, "data": JSON}');
      }
    }
    insertEvents(events);
    for (const { runId, sequence, data } of events) {
      pubsub.publish('runEvents', runId, { sequence, data });
    }
    response.writeHead(204).end();
  } catch (error) {
    response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error.message ?? error));
  }
}

const server = createServer((request, response) => {
  if (request.method === 'POST' && request.url === '/publish') {
    publish(request, response);
  } else {
    yoga(request, response);
  }
});

// graphql-ws on the same path, through yoga's envelop so both transports run the same schema and context (the
// set-up graphql-yoga documents for graphql-ws).
const wsServer = new WebSocketServer({ server, path: yoga.graphqlEndpoint });
useServer(
  {
    onConnect: (ctx) => {
      // As over HTTP: a bearer token must be there, and is not verified.
      const authorization = ctx.connectionParams?.authorization;
      return typeof authorization === 'string' && authorization.startsWith('Bearer ');
    },
    execute: (args) => args.rootValue.execute(args),
    subscribe: (args) => args.rootValue.subscribe(args),
    onSubscribe: async (ctx, _id, params) => {
      const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
        ...ctx,
        req: ctx.extra.request,
        socket: ctx.extra.socket,
        params,
      });
      const args = {
        schema,
        operationName: params.operationName,
        document: parse(params.query),
        variableValues: params.variables,
        contextValue: await contextFactory(),
        rootValue: { execute, subscribe },
      };
      const errors = validate(args.schema, args.document);
      if (errors.length) return errors;
      return args;
    },
  },
  wsServer,
);

server.listen(port, '127.0.0.1', () => {
  console.log(`PEER: http://127.0.0.1:${server.address().port}${yoga.graphqlEndpoint}`);
});
