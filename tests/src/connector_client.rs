//! A connector as the gateway sees one: enrollment over HTTP, then protocol frames over the
//! WebSocket. Tests use it to send what the real connector never would (malformed frames,
//! duplicates, someone else's identity).

use std::time::Duration;

use acc_protocol::{AgentDescriptor, Capability, Envelope, Frame};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use uuid::Uuid;

use crate::Server;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Exchanges an enrollment token; returns the HTTP status and body.
pub async fn enroll(server: &Server, token: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{}/v1/connectors/enroll", server.base_url()))
        .json(&json!({"token": token, "name": "test-host"}))
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

pub struct RawConnector {
    pub id: Uuid,
    socket: Socket,
}

/// The close frame or error that ended a connection attempt or a socket.
#[derive(Debug)]
pub enum Ended {
    Refused(u16),
    Closed(u16),
}

impl RawConnector {
    /// Dials the gateway with a credential; `Err(Refused(status))` when the upgrade is refused.
    pub async fn dial(server: &Server, id: Uuid, credential: &str) -> Result<Self, Ended> {
        let url = format!("{}/v1/connectors/ws", server.base_url().replacen("http", "ws", 1));
        let mut request = url.into_client_request().unwrap();
        request.headers_mut().insert("authorization", format!("Bearer {credential}").parse().unwrap());
        match tokio_tungstenite::connect_async(request).await {
            Ok((socket, _)) => Ok(Self { id, socket }),
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                Err(Ended::Refused(response.status().as_u16()))
            }
            Err(e) => panic!("dial failed: {e}"),
        }
    }

    /// Sends `hello` for one agent and returns the agent's id from `hello_ack`.
    pub async fn hello(&mut self, agent: &str, capabilities: Vec<Capability>) -> Uuid {
        let hello = Frame::Hello {
            connector_version: "test".into(),
            agents: vec![AgentDescriptor {
                name: agent.into(),
                adapter: "command".into(),
                adapter_version: "test".into(),
                runtime_version: None,
                capabilities,
            }],
            resume: vec![],
        };
        self.send(Envelope::new(self.id, hello)).await;
        match self.recv().await.unwrap().payload {
            Frame::HelloAck { agents, .. } => agents[0].agent_id,
            other => panic!("expected hello_ack, got {other:?}"),
        }
    }

    pub async fn send(&mut self, envelope: Envelope) {
        self.send_text(acc_protocol::encode(&envelope).unwrap()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        self.socket.send(Message::text(text)).await.unwrap();
    }

    /// An event frame of a run, as the connector numbers it.
    pub fn event(&self, run_id: Uuid, sequence: u64, kind: acc_protocol::EventKind, data: Value) -> Envelope {
        let mut envelope = Envelope::new(self.id, Frame::Event { kind, data });
        envelope.run_id = Some(run_id);
        envelope.event_id = Some(Uuid::now_v7());
        envelope.sequence = Some(sequence);
        envelope
    }

    /// The next frame, or how the socket ended.
    pub async fn recv(&mut self) -> Result<Envelope, Ended> {
        loop {
            let frame =
                tokio::time::timeout(Duration::from_secs(10), self.socket.next()).await.expect("a frame in time");
            match frame {
                Some(Ok(Message::Text(text))) => return Ok(acc_protocol::decode(text.as_bytes()).unwrap()),
                Some(Ok(Message::Close(frame))) => {
                    return Err(Ended::Closed(frame.map_or(1005, |f| u16::from(f.code))));
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return Err(Ended::Closed(1006)),
            }
        }
    }
}
