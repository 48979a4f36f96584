//! A connector as the gateway sees one: enrollment over HTTP, then protocol frames over the
//! WebSocket. Tests use it to send what the real connector never would (malformed frames,
//! duplicates, someone else's identity).

use std::time::Duration;

use acc_protocol::{
    AgentDescriptor, AgentId, ApprovalKey, Capability, Command, CommandOutcome, Envelope, Frame, HealthStatus,
    RunCursor,
};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use uuid::Uuid;

use crate::Server;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Exchanges an enrollment token; returns the HTTP status and body.
pub async fn enroll(server: &Server, token: &str) -> (u16, Value) {
    enroll_at(&server.base_url(), token).await
}

/// [`enroll`] with a server at `base_url` (`http://host:port`).
pub async fn enroll_at(base_url: &str, token: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{base_url}/v1/connectors/enroll"))
        .json(&json!({"token": token, "name": "test-host"}))
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

/// What `hello_ack` told a connector.
#[derive(Debug)]
pub struct Welcome {
    pub agents: Vec<AgentId>,
    pub resume: Vec<RunCursor>,
    pub approval_keys: Vec<ApprovalKey>,
}

pub struct RawConnector {
    pub id: Uuid,
    socket: Socket,
}

/// The close frame or error that ended a connection attempt or a socket.
#[derive(Debug)]
pub enum Ended {
    /// The upgrade was refused with this HTTP status.
    Refused(u16),
    Closed(u16),
    /// The connection failed below HTTP (a TLS handshake the server refused, say).
    Broken(String),
}

impl RawConnector {
    /// Dials the gateway with a credential; `Err(Refused(status))` when the upgrade is refused.
    pub async fn dial(server: &Server, id: Uuid, credential: &str) -> Result<Self, Ended> {
        Self::dial_with(&server.base_url(), id, credential, None).await
    }

    /// [`Self::dial`] with a server at `base_url` (`http://host:port`).
    pub async fn dial_at(base_url: &str, id: Uuid, credential: &str) -> Result<Self, Ended> {
        Self::dial_with(base_url, id, credential, None).await
    }

    /// Dials the gateway over TLS with `tls` (the server's CA, and a client certificate or none).
    pub async fn dial_tls(
        server: &Server,
        id: Uuid,
        credential: &str,
        tls: std::sync::Arc<rustls::ClientConfig>,
    ) -> Result<Self, Ended> {
        Self::dial_with(&server.base_url(), id, credential, Some(tokio_tungstenite::Connector::Rustls(tls))).await
    }

    /// Dials the gateway over plain HTTP from the loopback address `from`, with extra `headers`:
    /// as a reverse proxy in front of the server would, or a client pretending to be one.
    pub async fn dial_from(
        server: &Server,
        id: Uuid,
        credential: &str,
        from: std::net::IpAddr,
        headers: &[(&str, &str)],
    ) -> Result<Self, Ended> {
        let url = format!("{}/v1/connectors/ws", server.base_url().replacen("http", "ws", 1));
        let mut request = url.into_client_request().unwrap();
        request.headers_mut().insert("authorization", format!("Bearer {credential}").parse().unwrap());
        for (name, value) in headers {
            let name = tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(name.as_bytes()).unwrap();
            request.headers_mut().insert(name, value.parse().unwrap());
        }
        let uri = request.uri();
        let target = format!("{}:{}", uri.host().unwrap(), uri.port_u16().unwrap()).parse().unwrap();
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(std::net::SocketAddr::new(from, 0)).unwrap();
        let stream = socket.connect(target).await.map_err(|e| Ended::Broken(e.to_string()))?;
        match tokio_tungstenite::client_async_with_config(
            request,
            tokio_tungstenite::MaybeTlsStream::Plain(stream),
            None,
        )
        .await
        {
            Ok((socket, _)) => Ok(Self { id, socket }),
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                Err(Ended::Refused(response.status().as_u16()))
            }
            Err(e) => Err(Ended::Broken(e.to_string())),
        }
    }

    async fn dial_with(
        base_url: &str,
        id: Uuid,
        credential: &str,
        tls: Option<tokio_tungstenite::Connector>,
    ) -> Result<Self, Ended> {
        let url = format!("{}/v1/connectors/ws", base_url.replacen("http", "ws", 1));
        let mut request = url.into_client_request().unwrap();
        request.headers_mut().insert("authorization", format!("Bearer {credential}").parse().unwrap());
        match tokio_tungstenite::connect_async_tls_with_config(request, None, true, tls).await {
            Ok((socket, _)) => Ok(Self { id, socket }),
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                Err(Ended::Refused(response.status().as_u16()))
            }
            Err(e) => Err(Ended::Broken(e.to_string())),
        }
    }

    /// Sends `hello` for one agent and returns the agent's id from `hello_ack`.
    pub async fn hello(&mut self, agent: &str, capabilities: Vec<Capability>) -> Uuid {
        self.hello_with(&[(agent, capabilities)], vec![]).await.agents[0].agent_id
    }

    /// Sends `hello` offering `agents` and resuming `resume`; returns what `hello_ack` said.
    pub async fn hello_with(&mut self, agents: &[(&str, Vec<Capability>)], resume: Vec<RunCursor>) -> Welcome {
        let agents = agents
            .iter()
            .map(|(name, capabilities)| AgentDescriptor {
                name: (*name).into(),
                adapter: "command".into(),
                adapter_version: "test".into(),
                runtime_version: None,
                capabilities: capabilities.clone(),
            })
            .collect();
        let hello = Frame::Hello { connector_version: "test".into(), agents, resume };
        self.send(Envelope::new(self.id, hello)).await;
        match self.recv().await.unwrap().payload {
            Frame::HelloAck { agents, resume, approval_keys, .. } => Welcome { agents, resume, approval_keys },
            other => panic!("expected hello_ack, got {other:?}"),
        }
    }

    /// A heartbeat listing `active_runs`: renews the leases of this connector's attempts.
    pub async fn heartbeat(&mut self, active_runs: Vec<Uuid>) {
        self.send(Envelope::new(self.id, Frame::Heartbeat { status: HealthStatus::Healthy, active_runs })).await;
    }

    /// The next command, skipping event acknowledgements.
    pub async fn command(&mut self) -> (Uuid, Command) {
        loop {
            match self.recv().await.unwrap().payload {
                Frame::Command { command_id, command } => return (command_id, command),
                Frame::EventAck { .. } => continue,
                other => panic!("expected a command, got {other:?}"),
            }
        }
    }

    /// Accepts (or refuses) a command.
    pub async fn answer(&mut self, command_id: Uuid, outcome: CommandOutcome) {
        self.send(Envelope::new(self.id, Frame::CommandAck { command_id, outcome })).await;
    }

    /// Takes the next `start_run` (or `handoff_ingest`) and accepts it; returns its run and attempt.
    pub async fn accept_start(&mut self) -> (Uuid, Uuid) {
        let (command_id, command) = self.command().await;
        let (run_id, attempt_id) = match command {
            Command::StartRun { run_id, attempt_id, .. } | Command::HandoffIngest { run_id, attempt_id, .. } => {
                (run_id, attempt_id)
            }
            other => panic!("expected a start, got {other:?}"),
        };
        assert_eq!(command_id, attempt_id, "a start's command id is its attempt id");
        self.answer(command_id, CommandOutcome::Accepted).await;
        (run_id, attempt_id)
    }

    /// Sends an event and returns what the control plane answered: the acknowledged sequence, or the error code.
    pub async fn emit(&mut self, event: Envelope) -> Result<u64, acc_protocol::ErrorCode> {
        self.send(event).await;
        match self.recv().await.unwrap().payload {
            Frame::EventAck { up_to_sequence, .. } => Ok(up_to_sequence),
            Frame::Error { code, .. } => Err(code),
            other => panic!("expected an event_ack or an error, got {other:?}"),
        }
    }

    pub async fn send(&mut self, envelope: Envelope) {
        self.send_text(acc_protocol::encode(&envelope).unwrap()).await;
    }

    /// Sends frames in one write, as a connector catching up does.
    pub async fn send_all(&mut self, envelopes: &[Envelope]) {
        for envelope in envelopes {
            self.socket.feed(Message::text(acc_protocol::encode(envelope).unwrap())).await.unwrap();
        }
        self.socket.flush().await.unwrap();
    }

    pub async fn send_text(&mut self, text: String) {
        self.try_send_text(text).await.unwrap();
    }

    /// Sends a text frame the server may refuse while it is still being written.
    pub async fn try_send_text(&mut self, text: String) -> Result<(), tokio_tungstenite::tungstenite::Error> {
        self.socket.send(Message::text(text)).await
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
