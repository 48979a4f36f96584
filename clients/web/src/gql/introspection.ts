import type { IntrospectionQuery } from 'graphql';
export default {
  "__schema": {
    "queryType": {
      "name": "QueryRoot",
      "kind": "OBJECT"
    },
    "mutationType": {
      "name": "MutationRoot",
      "kind": "OBJECT"
    },
    "subscriptionType": {
      "name": "SubscriptionRoot",
      "kind": "OBJECT"
    },
    "types": [
      {
        "kind": "OBJECT",
        "name": "AcceptanceCriterion",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "description",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "met",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "taskId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "updatedAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "ActivateSkillPayload",
        "fields": [
          {
            "name": "activation",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "SkillActivation",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "approval",
            "type": {
              "kind": "OBJECT",
              "name": "Approval",
              "ofType": null
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "Agent",
        "fields": [
          {
            "name": "adapter",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "adapterVersion",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "capabilities",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "connector",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Connector",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "name",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "online",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "runtimeVersion",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "AgentRunCounts",
        "fields": [
          {
            "name": "agent",
            "type": {
              "kind": "OBJECT",
              "name": "Agent",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "counts",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "RunCounts",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "ApiToken",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "expiresAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "name",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "revokedAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "scopes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "ApiTokenConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ApiTokenEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ApiToken",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "ApiTokenEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ApiToken",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "Approval",
        "fields": [
          {
            "name": "action",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "decidedAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "decidedBy",
            "type": {
              "kind": "OBJECT",
              "name": "User",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "decisionReason",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "details",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "expiresAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "reason",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "requestedBy",
            "type": {
              "kind": "OBJECT",
              "name": "User",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "run",
            "type": {
              "kind": "OBJECT",
              "name": "TaskRun",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "skillActivation",
            "type": {
              "kind": "OBJECT",
              "name": "SkillActivation",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "status",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "subject",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "wikiPage",
            "type": {
              "kind": "OBJECT",
              "name": "WikiPage",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "wikiRevision",
            "type": {
              "kind": "OBJECT",
              "name": "WikiRevision",
              "ofType": null
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "ApprovalConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ApprovalEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Approval",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "ApprovalEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Approval",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "Artifact",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "latest",
            "type": {
              "kind": "OBJECT",
              "name": "ArtifactVersion",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "name",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "projectId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "taskId",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "updatedAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "versions",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ArtifactVersion",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "ArtifactConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ArtifactEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Artifact",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "ArtifactEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Artifact",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "ArtifactVersion",
        "fields": [
          {
            "name": "artifactId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "createdById",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "downloadPath",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "mediaType",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "number",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "provenance",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "runId",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "sha256",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "sizeBytes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "AuditBrokenLink",
        "fields": [
          {
            "name": "problem",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "sequence",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "AuditEvent",
        "fields": [
          {
            "name": "action",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "actor",
            "type": {
              "kind": "OBJECT",
              "name": "User",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "actorId",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "actorKind",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "correlationId",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "details",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "hash",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "occurredAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "previousHash",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "projectId",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "sequence",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "targetId",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "targetKind",
            "type": {
              "kind": "SCALAR",
              "name": "Any"
            },
            "args": []
          },
          {
            "name": "workspaceId",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "AuditEventConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "AuditEventEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "AuditEvent",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "AuditEventEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "AuditEvent",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "AuditVerification",
        "fields": [
          {
            "name": "checkpoints",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "events",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "firstBroken",
            "type": {
              "kind": "OBJECT",
              "name": "AuditBrokenLink",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "intact",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "AuthPayload",
        "fields": [
          {
            "name": "accessToken",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "accessTokenExpiresAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "organization",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Organization",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "refreshToken",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "session",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Session",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "user",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "User",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "SCALAR",
        "name": "Boolean"
      },
      {
        "kind": "OBJECT",
        "name": "BudgetPolicy",
        "fields": [
          {
            "name": "exceeded",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "maxCostUsd",
            "type": {
              "kind": "SCALAR",
              "name": "Float",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "maxTokens",
            "type": {
              "kind": "SCALAR",
              "name": "Int",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "period",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "periodEnd",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "periodStart",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "remainingCostUsd",
            "type": {
              "kind": "SCALAR",
              "name": "Float",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "remainingTokens",
            "type": {
              "kind": "SCALAR",
              "name": "Int",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "scopeId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "usedCostUsd",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Float",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "usedTokens",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "Candidate",
        "fields": [
          {
            "name": "baseline",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "CandidateComposition",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "baselineRun",
            "type": {
              "kind": "OBJECT",
              "name": "TaskRun",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "candidate",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "CandidateComposition",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "candidateRun",
            "type": {
              "kind": "OBJECT",
              "name": "TaskRun",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "comparison",
            "type": {
              "kind": "SCALAR",
              "name": "JSON",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "decisionReason",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "expectedRevision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "receipt",
            "type": {
              "kind": "SCALAR",
              "name": "JSON",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "scopeId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "settingsPatch",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "status",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "task",
            "type": {
              "kind": "OBJECT",
              "name": "Task",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "updatedAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "CandidateComposition",
        "fields": [
          {
            "name": "settings",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "skills",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "SkillVersion",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "Checkpoint",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "data",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "reason",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "targetAgent",
            "type": {
              "kind": "OBJECT",
              "name": "Agent",
              "ofType": null
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "Connector",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "health",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "lastSeenAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "name",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "online",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "removedAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "revokedAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "version",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "workspaceId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "ContextItem",
        "fields": [
          {
            "name": "contentHash",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "included",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "kind",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "redactions",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "source",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "title",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "tokens",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "CreatedApiToken",
        "fields": [
          {
            "name": "apiToken",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ApiToken",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "secret",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "CreatedEnrollmentToken",
        "fields": [
          {
            "name": "enrollmentToken",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "EnrollmentToken",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "token",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "SCALAR",
        "name": "DateTime"
      },
      {
        "kind": "OBJECT",
        "name": "EffectiveSetting",
        "fields": [
          {
            "name": "key",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "sourceScopeId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "sourceScopeKind",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "value",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "EffectiveSettings",
        "fields": [
          {
            "name": "entries",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "EffectiveSetting",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "layers",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "SettingsChainLink",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "scopeId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "EnrollmentToken",
        "fields": [
          {
            "name": "expiresAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "name",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "usedAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "SCALAR",
        "name": "Float"
      },
      {
        "kind": "SCALAR",
        "name": "ID"
      },
      {
        "kind": "SCALAR",
        "name": "Int"
      },
      {
        "kind": "SCALAR",
        "name": "JSON"
      },
      {
        "kind": "OBJECT",
        "name": "KnownSetting",
        "fields": [
          {
            "name": "default",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "description",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "key",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "maximum",
            "type": {
              "kind": "SCALAR",
              "name": "Int",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "minimum",
            "type": {
              "kind": "SCALAR",
              "name": "Int",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "type",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "MemoryConflict",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "currentVersionId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "entryId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "proposedVersionId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "resolution",
            "type": {
              "kind": "SCALAR",
              "name": "Any"
            },
            "args": []
          },
          {
            "name": "resolvedAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "resolvedById",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "status",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "MemoryEntry",
        "fields": [
          {
            "name": "conflicts",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "MemoryConflict",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "current",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "MemoryVersion",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "kind",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "scopeId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "scopeKind",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "subject",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "updatedAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "versions",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "MemoryVersion",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "MemoryHit",
        "fields": [
          {
            "name": "entry",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "MemoryEntry",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "foundBy",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "score",
            "type": {
              "kind": "SCALAR",
              "name": "Float",
              "ofType": null
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "MemoryVersion",
        "fields": [
          {
            "name": "acl",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "becameCurrentAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "confidence",
            "type": {
              "kind": "SCALAR",
              "name": "Float",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "content",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "contentHash",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "createdById",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "number",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "provenance",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "sensitivity",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "summary",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "supersedesId",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "validFrom",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "validUntil",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "verification",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "verifiedAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "verifiedById",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "MemoryWrite",
        "fields": [
          {
            "name": "conflict",
            "type": {
              "kind": "OBJECT",
              "name": "MemoryConflict",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "entry",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "MemoryEntry",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "version",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "MemoryVersion",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "MutationRoot",
        "fields": [
          {
            "name": "activateSkill",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ActivateSkillPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "versionId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "addAcceptanceCriterion",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "AcceptanceCriterion",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "description",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "taskId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "addTaskDependency",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Task",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "dependsOnId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "taskId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "applyCandidate",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Candidate",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "candidateId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "beginOidcSignIn",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "OidcSignInStart",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "provider",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "redirectUri",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "cancelRun",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "TaskRun",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "runId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "compareCandidate",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Candidate",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "candidateId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "completeOidcSignIn",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "AuthPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "code",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "deviceName",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "flow",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "issuer",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "state",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "createApiToken",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "CreatedApiToken",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "expiresAt",
                "type": {
                  "kind": "SCALAR",
                  "name": "DateTime",
                  "ofType": null
                }
              },
              {
                "name": "name",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "scopes",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "LIST",
                    "ofType": {
                      "kind": "NON_NULL",
                      "ofType": {
                        "kind": "SCALAR",
                        "name": "Any"
                      }
                    }
                  }
                }
              }
            ]
          },
          {
            "name": "createEnrollmentToken",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "CreatedEnrollmentToken",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "expiresIn",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Int",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "name",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "workspaceId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "createOrganization",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Organization",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "name",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "ownerDisplayName",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "ownerEmail",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "ownerPassword",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "createProject",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Project",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "description",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "idempotencyKey",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "name",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "workspaceId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "createTask",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Task",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "idempotencyKey",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "input",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              }
            ]
          },
          {
            "name": "createUser",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "User",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "displayName",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "email",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "password",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "role",
                "type": {
                  "kind": "SCALAR",
                  "name": "Any"
                }
              }
            ]
          },
          {
            "name": "createWikiNamespace",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiNamespace",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "authoritative",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Boolean",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "name",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "createWorkspace",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Workspace",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "description",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "idempotencyKey",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "name",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "deactivateSkill",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "SkillActivation",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "activationId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "decideApproval",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Approval",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "approvalId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "decision",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              },
              {
                "name": "reason",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "decideCandidate",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Candidate",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "candidateId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "decision",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              },
              {
                "name": "reason",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "deleteTask",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "expectedRevision",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "id",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "grantRole",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "RoleBinding",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "role",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              },
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "subjectId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "login",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "AuthPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "deviceName",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "email",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "password",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "logout",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "markNotificationsRead",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "ids",
                "type": {
                  "kind": "LIST",
                  "ofType": {
                    "kind": "NON_NULL",
                    "ofType": {
                      "name": "ID",
                      "kind": "SCALAR",
                      "ofType": null
                    }
                  }
                }
              }
            ]
          },
          {
            "name": "prepareCandidate",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Candidate",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "agentId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "candidateId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "taskId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "proposeCandidate",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Candidate",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "expectedRevision",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Int",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "patch",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              },
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "publishWikiPage",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiPage",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "pageId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "revision",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "rebuildMemoryIndex",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "redeemBootstrap",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "AuthPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "code",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "displayName",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "email",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "organizationName",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "password",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "refreshSession",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "AuthPayload",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "refreshToken",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "registerPushSubscription",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "auth",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "endpoint",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "p256dh",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "removeBudgetPolicy",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "id",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "removeConnector",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Connector",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "id",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "removePushSubscription",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "endpoint",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "removeTaskDependency",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Task",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "dependsOnId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "taskId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "renameWikiPage",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiPage",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "expectedRevision",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Int",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "pageId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "path",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "requestCheckpoint",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "TaskRun",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "reason",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "runId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "requestHandoff",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "TaskRun",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "reason",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "runId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "targetAgentId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "requestSkillReview",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "SkillVersion",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "reason",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "versionId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "requestWikiReview",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Approval",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "pageId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "reason",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "revision",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "resolveMemoryConflict",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "MemoryConflict",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "conflictId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "expectedRevision",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Int",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "resolution",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              }
            ]
          },
          {
            "name": "retractMemory",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "MemoryEntry",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "entryId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "expectedRevision",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Int",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "reviewSkillVersion",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "SkillVersion",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "decision",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              },
              {
                "name": "reason",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "versionId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "revokeApiToken",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ApiToken",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "id",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "revokeConnector",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Connector",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "id",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "revokeRole",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "role",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              },
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "subjectId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "revokeSession",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Session",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "id",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "revokeSkillPublisherKey",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "SkillPublisherKey",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "keyId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "revokeSkillVersion",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "SkillVersion",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "reason",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "versionId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "saveWikiPage",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiPage",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "input",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              }
            ]
          },
          {
            "name": "setAcceptanceCriterionMet",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "AcceptanceCriterion",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "expectedRevision",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "id",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "met",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Boolean",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "setBudgetPolicy",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "BudgetPolicy",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "maxCostUsd",
                "type": {
                  "kind": "SCALAR",
                  "name": "Float",
                  "ofType": null
                }
              },
              {
                "name": "maxTokens",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "period",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              },
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "setNotificationPreference",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "NotificationPreference",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "channel",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              },
              {
                "name": "enabled",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Boolean",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "kind",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              }
            ]
          },
          {
            "name": "setSettings",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "SettingsLayer",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "expectedRevision",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Int",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "patch",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "JSON",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "setUserDisabled",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "User",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "disabled",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Boolean",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "id",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "setWikiNamespaceAcl",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiNamespace",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "namespaceId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "userIds",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "LIST",
                    "ofType": {
                      "kind": "NON_NULL",
                      "ofType": {
                        "name": "ID",
                        "kind": "SCALAR",
                        "ofType": null
                      }
                    }
                  }
                }
              }
            ]
          },
          {
            "name": "startRun",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "TaskRun",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "agentId",
                "type": {
                  "kind": "SCALAR",
                  "name": "ID",
                  "ofType": null
                }
              },
              {
                "name": "budget",
                "type": {
                  "kind": "SCALAR",
                  "name": "Any"
                }
              },
              {
                "name": "idempotencyKey",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "input",
                "type": {
                  "kind": "SCALAR",
                  "name": "JSON",
                  "ofType": null
                }
              },
              {
                "name": "requiredCapabilities",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "LIST",
                    "ofType": {
                      "kind": "NON_NULL",
                      "ofType": {
                        "kind": "SCALAR",
                        "name": "Any"
                      }
                    }
                  }
                }
              },
              {
                "name": "taskId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "trustSkillPublisherKey",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "SkillPublisherKey",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "name",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "publicKey",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "updateProject",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Project",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "description",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "expectedRevision",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Int",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "id",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "name",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "updateTask",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Task",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "input",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              }
            ]
          },
          {
            "name": "verifyMemory",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "MemoryEntry",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "entryId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "expectedRevision",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Int",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "verdict",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              }
            ]
          },
          {
            "name": "writeMemory",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "MemoryWrite",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "input",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              }
            ]
          }
        ],
        "interfaces": []
      },
      {
        "kind": "INTERFACE",
        "name": "Node",
        "fields": [
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [],
        "possibleTypes": [
          {
            "kind": "OBJECT",
            "name": "AcceptanceCriterion"
          },
          {
            "kind": "OBJECT",
            "name": "Agent"
          },
          {
            "kind": "OBJECT",
            "name": "ApiToken"
          },
          {
            "kind": "OBJECT",
            "name": "Approval"
          },
          {
            "kind": "OBJECT",
            "name": "Artifact"
          },
          {
            "kind": "OBJECT",
            "name": "ArtifactVersion"
          },
          {
            "kind": "OBJECT",
            "name": "AuditEvent"
          },
          {
            "kind": "OBJECT",
            "name": "BudgetPolicy"
          },
          {
            "kind": "OBJECT",
            "name": "Candidate"
          },
          {
            "kind": "OBJECT",
            "name": "Connector"
          },
          {
            "kind": "OBJECT",
            "name": "EnrollmentToken"
          },
          {
            "kind": "OBJECT",
            "name": "MemoryConflict"
          },
          {
            "kind": "OBJECT",
            "name": "MemoryEntry"
          },
          {
            "kind": "OBJECT",
            "name": "MemoryVersion"
          },
          {
            "kind": "OBJECT",
            "name": "Notification"
          },
          {
            "kind": "OBJECT",
            "name": "Organization"
          },
          {
            "kind": "OBJECT",
            "name": "Project"
          },
          {
            "kind": "OBJECT",
            "name": "RoleBinding"
          },
          {
            "kind": "OBJECT",
            "name": "Session"
          },
          {
            "kind": "OBJECT",
            "name": "SettingsLayer"
          },
          {
            "kind": "OBJECT",
            "name": "Skill"
          },
          {
            "kind": "OBJECT",
            "name": "SkillActivation"
          },
          {
            "kind": "OBJECT",
            "name": "SkillPublisherKey"
          },
          {
            "kind": "OBJECT",
            "name": "SkillVersion"
          },
          {
            "kind": "OBJECT",
            "name": "Task"
          },
          {
            "kind": "OBJECT",
            "name": "TaskRun"
          },
          {
            "kind": "OBJECT",
            "name": "User"
          },
          {
            "kind": "OBJECT",
            "name": "WikiAttachment"
          },
          {
            "kind": "OBJECT",
            "name": "WikiNamespace"
          },
          {
            "kind": "OBJECT",
            "name": "WikiPage"
          },
          {
            "kind": "OBJECT",
            "name": "WikiRevision"
          },
          {
            "kind": "OBJECT",
            "name": "Workspace"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "Notification",
        "fields": [
          {
            "name": "body",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "kind",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "projectId",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "readAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "subjectId",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "title",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "NotificationConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "NotificationEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Notification",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "NotificationEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Notification",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "NotificationPreference",
        "fields": [
          {
            "name": "channel",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "enabled",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "kind",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "NotificationSettings",
        "fields": [
          {
            "name": "emailAddress",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "emailAvailable",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "preferences",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "NotificationPreference",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pushDevices",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "webPushPublicKey",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "OidcSignInStart",
        "fields": [
          {
            "name": "authorizationUrl",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "flow",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "Organization",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "name",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "PageInfo",
        "fields": [
          {
            "name": "endCursor",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "hasNextPage",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "hasPreviousPage",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "startCursor",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "Project",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "description",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "name",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "tasks",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "TaskConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "filter",
                "type": {
                  "kind": "SCALAR",
                  "name": "Any"
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "updatedAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "workspace",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Workspace",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "ProjectConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ProjectEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Project",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "ProjectEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Project",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "QueryRoot",
        "fields": [
          {
            "name": "agents",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Agent",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": [
              {
                "name": "capability",
                "type": {
                  "kind": "SCALAR",
                  "name": "Any"
                }
              },
              {
                "name": "projectId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "apiTokens",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ApiTokenConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "approvals",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ApprovalConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "projectId",
                "type": {
                  "kind": "SCALAR",
                  "name": "ID",
                  "ofType": null
                }
              },
              {
                "name": "status",
                "type": {
                  "kind": "SCALAR",
                  "name": "Any"
                }
              }
            ]
          },
          {
            "name": "artifact",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Artifact",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "id",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "artifacts",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ArtifactConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "projectId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "taskId",
                "type": {
                  "kind": "SCALAR",
                  "name": "ID",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "auditEvents",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "AuditEventConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "filter",
                "type": {
                  "kind": "SCALAR",
                  "name": "Any"
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "backlinks",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "WikiPage",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": [
              {
                "name": "pageId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "bootstrapRequired",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "budgetPolicies",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "BudgetPolicy",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": [
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "candidates",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Candidate",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": [
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "connectors",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Connector",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": [
              {
                "name": "workspaceId",
                "type": {
                  "kind": "SCALAR",
                  "name": "ID",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "effectiveSettings",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "EffectiveSettings",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "knownSettings",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "KnownSetting",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "memory",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "MemoryHit",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": [
              {
                "name": "asOf",
                "type": {
                  "kind": "SCALAR",
                  "name": "DateTime",
                  "ofType": null
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "kinds",
                "type": {
                  "kind": "LIST",
                  "ofType": {
                    "kind": "NON_NULL",
                    "ofType": {
                      "kind": "SCALAR",
                      "name": "Any"
                    }
                  }
                }
              },
              {
                "name": "query",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "retrievers",
                "type": {
                  "kind": "LIST",
                  "ofType": {
                    "kind": "NON_NULL",
                    "ofType": {
                      "kind": "SCALAR",
                      "name": "Any"
                    }
                  }
                }
              },
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "verification",
                "type": {
                  "kind": "LIST",
                  "ofType": {
                    "kind": "NON_NULL",
                    "ofType": {
                      "kind": "SCALAR",
                      "name": "Any"
                    }
                  }
                }
              }
            ]
          },
          {
            "name": "memoryEntry",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "MemoryEntry",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "asOf",
                "type": {
                  "kind": "SCALAR",
                  "name": "DateTime",
                  "ofType": null
                }
              },
              {
                "name": "id",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "memoryRetrievalMode",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Node",
                "kind": "INTERFACE",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "id",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "notificationSettings",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "NotificationSettings",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "notifications",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "NotificationConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "unreadOnly",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Boolean",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "organization",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Organization",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "runContext",
            "type": {
              "kind": "OBJECT",
              "name": "RunContext",
              "ofType": null
            },
            "args": [
              {
                "name": "runId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "runEvents",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "RunEventConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "runId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "runStatistics",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "RunStatistics",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "filter",
                "type": {
                  "kind": "SCALAR",
                  "name": "Any"
                }
              }
            ]
          },
          {
            "name": "runUsage",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "RunUsage",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "runId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "runs",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "TaskRunConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "filter",
                "type": {
                  "kind": "SCALAR",
                  "name": "Any"
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "sessions",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "SessionConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "signInProviders",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "SignInProvider",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "skillActivations",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "SkillActivation",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": [
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "skillPublisherKeys",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "SkillPublisherKey",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "skills",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "SkillConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "tasks",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "TaskConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "filter",
                "type": {
                  "kind": "SCALAR",
                  "name": "Any"
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "projectId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "unreadNotificationCount",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "usageSummary",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "UsageSummary",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "from",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "DateTime",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "groupBy",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              },
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "to",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "DateTime",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "users",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "UserConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "verifyAudit",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "AuditVerification",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "viewer",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "User",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "wikiDiff",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiDiff",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "from",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Int",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "pageId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "to",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Int",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "wikiNamespaces",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "WikiNamespace",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": [
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "wikiPage",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiPage",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "namespaceId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "path",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "wikiPages",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiPageConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "namespaceId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "wikiRevisions",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiRevisionConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "pageId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "wikiSearch",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "WikiSearchHit",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": [
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "query",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              },
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "workspaces",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WorkspaceConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              }
            ]
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "RoleBinding",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "role",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "scopeId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "subject",
            "type": {
              "kind": "OBJECT",
              "name": "User",
              "ofType": null
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "RunAttempt",
        "fields": [
          {
            "name": "agent",
            "type": {
              "kind": "OBJECT",
              "name": "Agent",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "endedAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "kind",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "leaseExpiresAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "number",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "status",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "RunBudget",
        "fields": [
          {
            "name": "maxCostUsd",
            "type": {
              "kind": "SCALAR",
              "name": "Float",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "maxTokens",
            "type": {
              "kind": "SCALAR",
              "name": "Int",
              "ofType": null
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "RunContext",
        "fields": [
          {
            "name": "bundle",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "bundleHash",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "items",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ContextItem",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "runId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "tokenBudget",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "tokensUsed",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "RunCounts",
        "fields": [
          {
            "name": "byStatus",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "RunStatusCount",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "finished",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "meanDurationMs",
            "type": {
              "kind": "SCALAR",
              "name": "Int",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "medianDurationMs",
            "type": {
              "kind": "SCALAR",
              "name": "Int",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "p95DurationMs",
            "type": {
              "kind": "SCALAR",
              "name": "Int",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "runs",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "RunEvent",
        "fields": [
          {
            "name": "data",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "kind",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "occurredAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "runId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "sequence",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "RunEventConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "RunEventEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "RunEvent",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "RunEventEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "RunEvent",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "RunSkill",
        "fields": [
          {
            "name": "digest",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "name",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "number",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "versionId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "RunStatistics",
        "fields": [
          {
            "name": "byAgent",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "AgentRunCounts",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "total",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "RunCounts",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "RunStatusCount",
        "fields": [
          {
            "name": "count",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "status",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "RunUsage",
        "fields": [
          {
            "name": "budget",
            "type": {
              "kind": "OBJECT",
              "name": "RunBudget",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "measured",
            "type": {
              "kind": "OBJECT",
              "name": "UsageSignal",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "reported",
            "type": {
              "kind": "OBJECT",
              "name": "UsageSignal",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "wallTimeMs",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "Session",
        "fields": [
          {
            "name": "clientAddress",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "current",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "deviceName",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "lastUsedAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "revokedAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "revokedReason",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "SessionConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "SessionEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Session",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "SessionEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Session",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "SettingsChainLink",
        "fields": [
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "scopeId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "scopeKind",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "settings",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "SettingsLayer",
        "fields": [
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "scopeId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "settings",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "updatedAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "SignInProvider",
        "fields": [
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "name",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "Skill",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "latestVersion",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "name",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "updatedAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "versions",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "SkillVersion",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "SkillActivation",
        "fields": [
          {
            "name": "activatedBy",
            "type": {
              "kind": "OBJECT",
              "name": "User",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "scopeId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "status",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "version",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "SkillVersion",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "SkillConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "SkillEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Skill",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "SkillEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Skill",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "SkillFile",
        "fields": [
          {
            "name": "path",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "sha256",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "size",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "SkillPublisherKey",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "keyId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "name",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "publicKey",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "revokedAt",
            "type": {
              "kind": "SCALAR",
              "name": "DateTime",
              "ofType": null
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "SkillVersion",
        "fields": [
          {
            "name": "allowedTools",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "archiveSha256",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "archiveSize",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "compatibility",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "description",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "digest",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "files",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "SkillFile",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "hasScripts",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "importedBy",
            "type": {
              "kind": "OBJECT",
              "name": "User",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "instructions",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "license",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "metadata",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "number",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "reviewReason",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "reviewState",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "reviewedBy",
            "type": {
              "kind": "OBJECT",
              "name": "User",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "signatureStatus",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "signerKeyId",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "skillId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "SCALAR",
        "name": "String"
      },
      {
        "kind": "OBJECT",
        "name": "SubscriptionRoot",
        "fields": [
          {
            "name": "approvalUpdated",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Approval",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "projectId",
                "type": {
                  "kind": "SCALAR",
                  "name": "ID",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "connectorStatus",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Connector",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "workspaceId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "memoryUpdated",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "MemoryEntry",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "scopeId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "notificationAdded",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Notification",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "runEvents",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "RunEvent",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "runId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "runUpdated",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "TaskRun",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "projectId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "taskEvents",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "TaskEvent",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "projectId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          },
          {
            "name": "wikiPageUpdated",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiPage",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "namespaceId",
                "type": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            ]
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "Task",
        "fields": [
          {
            "name": "acceptanceCriteria",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "AcceptanceCriterion",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "assignee",
            "type": {
              "kind": "OBJECT",
              "name": "User",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "dependencies",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Task",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "dependents",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Task",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "description",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "labels",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "latestRun",
            "type": {
              "kind": "OBJECT",
              "name": "TaskRun",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "priority",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "project",
            "type": {
              "kind": "OBJECT",
              "name": "Project",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "runs",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "TaskRun",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "status",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "title",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "updatedAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "TaskConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "TaskEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Task",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "TaskEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Task",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "TaskEvent",
        "fields": [
          {
            "name": "kind",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "missedEvents",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "task",
            "type": {
              "kind": "OBJECT",
              "name": "Task",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "taskId",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "TaskRun",
        "fields": [
          {
            "name": "agent",
            "type": {
              "kind": "OBJECT",
              "name": "Agent",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "approvals",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Approval",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "artifacts",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Artifact",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "attempts",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "RunAttempt",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "checkpoints",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Checkpoint",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "handoffTarget",
            "type": {
              "kind": "OBJECT",
              "name": "Agent",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "input",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "maxAttempts",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "requestedAgent",
            "type": {
              "kind": "OBJECT",
              "name": "Agent",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "requiredCapabilities",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "skills",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "RunSkill",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "status",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "statusReason",
            "type": {
              "kind": "SCALAR",
              "name": "String",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "task",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Task",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "updatedAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "usage",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "RunUsage",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "TaskRunConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "TaskRunEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "TaskRun",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "TaskRunEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "TaskRun",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "UsageGroup",
        "fields": [
          {
            "name": "key",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "label",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "totals",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "UsageTotals",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "UsageSignal",
        "fields": [
          {
            "name": "cachedInputTokens",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "cost",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "costUsd",
            "type": {
              "kind": "SCALAR",
              "name": "Float",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "inputTokens",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "models",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "String",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "outputTokens",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "requests",
            "type": {
              "kind": "SCALAR",
              "name": "Int",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "source",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "tokens",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "UsageSummary",
        "fields": [
          {
            "name": "from",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "groups",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "UsageGroup",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "to",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "total",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "UsageTotals",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "UsageTotals",
        "fields": [
          {
            "name": "cachedInputTokens",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "cost",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          },
          {
            "name": "costUsd",
            "type": {
              "kind": "SCALAR",
              "name": "Float",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "inputTokens",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "outputTokens",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "requests",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "runs",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "tokens",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "SCALAR",
                "name": "Any"
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "User",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "disabled",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "displayName",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "email",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "isServerAdmin",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "organization",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Organization",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "roleBindings",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "RoleBinding",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "UserConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "UserEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "User",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "UserEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "User",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "WikiAttachment",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "createdById",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "downloadPath",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "mediaType",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "name",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "number",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "sha256",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "sizeBytes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "WikiDiff",
        "fields": [
          {
            "name": "addedLines",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "from",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "removedLines",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "to",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "unified",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "WikiLink",
        "fields": [
          {
            "name": "page",
            "type": {
              "kind": "OBJECT",
              "name": "WikiPage",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "targetPath",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "WikiNamespace",
        "fields": [
          {
            "name": "acl",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "ID",
                    "kind": "SCALAR",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "authoritative",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Boolean",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "name",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "projectId",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "workspaceId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "WikiPage",
        "fields": [
          {
            "name": "attachments",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "WikiAttachment",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "latest",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiRevision",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "links",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "WikiLink",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "namespace",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiNamespace",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "namespaceId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "path",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "published",
            "type": {
              "kind": "OBJECT",
              "name": "WikiRevision",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "publishedRevision",
            "type": {
              "kind": "SCALAR",
              "name": "Int",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "title",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "updatedAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "WikiPageConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "WikiPageEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "WikiPage",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "WikiPageEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiPage",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "WikiRevision",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "createdById",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "number",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "pageId",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "path",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "provenance",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "JSON",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "runId",
            "type": {
              "kind": "SCALAR",
              "name": "ID",
              "ofType": null
            },
            "args": []
          },
          {
            "name": "sha256",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "source",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "title",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "WikiRevisionConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "WikiRevisionEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "WikiRevision",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "WikiRevisionEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiRevision",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "WikiSearchHit",
        "fields": [
          {
            "name": "foundBy",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "kind": "SCALAR",
                    "name": "Any"
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "page",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "WikiPage",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "score",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Float",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "Workspace",
        "fields": [
          {
            "name": "createdAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "description",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "id",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ID",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "name",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "projects",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "ProjectConnection",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": [
              {
                "name": "after",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "before",
                "type": {
                  "kind": "SCALAR",
                  "name": "String",
                  "ofType": null
                }
              },
              {
                "name": "first",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              },
              {
                "name": "last",
                "type": {
                  "kind": "SCALAR",
                  "name": "Int",
                  "ofType": null
                }
              }
            ]
          },
          {
            "name": "revision",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Int",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "updatedAt",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "DateTime",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": [
          {
            "kind": "INTERFACE",
            "name": "Node"
          }
        ]
      },
      {
        "kind": "OBJECT",
        "name": "WorkspaceConnection",
        "fields": [
          {
            "name": "edges",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "WorkspaceEdge",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "nodes",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "kind": "LIST",
                "ofType": {
                  "kind": "NON_NULL",
                  "ofType": {
                    "name": "Workspace",
                    "kind": "OBJECT",
                    "ofType": null
                  }
                }
              }
            },
            "args": []
          },
          {
            "name": "pageInfo",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "PageInfo",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "OBJECT",
        "name": "WorkspaceEdge",
        "fields": [
          {
            "name": "cursor",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "String",
                "kind": "SCALAR",
                "ofType": null
              }
            },
            "args": []
          },
          {
            "name": "node",
            "type": {
              "kind": "NON_NULL",
              "ofType": {
                "name": "Workspace",
                "kind": "OBJECT",
                "ofType": null
              }
            },
            "args": []
          }
        ],
        "interfaces": []
      },
      {
        "kind": "SCALAR",
        "name": "Any"
      }
    ],
    "directives": []
  }
} as unknown as IntrospectionQuery;