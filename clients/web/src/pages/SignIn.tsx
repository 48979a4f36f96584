// Sign-in, or on a server without accounts, the one-time bootstrap that creates its owner.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { accept } from "../api/auth";
import { Action, ErrorBox, Loading, usePageTitle } from "../ui/components";

const BootstrapRequiredQuery = graphql(`
  query BootstrapRequired {
    bootstrapRequired
  }
`);

const LoginMutation = graphql(`
  mutation Login($email: String!, $password: String!, $deviceName: String) {
    login(email: $email, password: $password, deviceName: $deviceName) {
      ...AuthTokens
    }
  }
`);

const RedeemBootstrapMutation = graphql(`
  mutation RedeemBootstrap(
    $code: String!
    $organizationName: String!
    $email: String!
    $password: String!
    $displayName: String
  ) {
    redeemBootstrap(
      code: $code
      organizationName: $organizationName
      email: $email
      password: $password
      displayName: $displayName
    ) {
      ...AuthTokens
    }
  }
`);

function deviceName(): string {
  const ua = navigator.userAgent;
  const browser = /Firefox/.test(ua) ? "Firefox" : /Edg\//.test(ua) ? "Edge" : /Chrom/.test(ua) ? "Chromium" : /Safari/.test(ua) ? "Safari" : "Browser";
  return `${browser} (web)`;
}

export function SignIn() {
  const [{ data, fetching, error }] = useQuery({ query: BootstrapRequiredQuery, requestPolicy: "network-only" });
  if (fetching && !data) return <Loading what="the server" />;
  return (
    <main className="signin">
      <h1>Agent Control Center</h1>
      <ErrorBox error={error} />
      {data?.bootstrapRequired ? <Bootstrap /> : <Login />}
    </main>
  );
}

function Login() {
  usePageTitle("Sign in");
  const [{ fetching, error }, login] = useMutation(LoginMutation);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await login({ email, password, deviceName: deviceName() });
    if (result.data) accept(result.data.login);
  };
  return (
    <form onSubmit={submit} className="card stack" aria-label="Sign in">
      <h2>Sign in</h2>
      <label>
        Email
        <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        Password
        <input
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <ErrorBox error={error} />
      <Action type="submit" busy={fetching}>
        Sign in
      </Action>
    </form>
  );
}

function Bootstrap() {
  usePageTitle("Set up this server");
  const [{ fetching, error }, redeem] = useMutation(RedeemBootstrapMutation);
  const [form, setForm] = useState({ code: "", organizationName: "", email: "", password: "", displayName: "" });
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value }),
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await redeem({ ...form, displayName: form.displayName || null });
    if (result.data) accept(result.data.redeemBootstrap);
  };
  return (
    <form onSubmit={submit} className="card stack" aria-label="Set up this server">
      <h2>Set up this server</h2>
      <p className="muted">
        This server has no accounts yet. Enter the bootstrap code <code>acc serve</code> printed to create the
        first organization and its owner. The code works once.
      </p>
      <label>
        Bootstrap code
        <input required autoComplete="off" spellCheck={false} {...field("code")} />
      </label>
      <label>
        Organization name
        <input required {...field("organizationName")} />
      </label>
      <label>
        Your name
        <input autoComplete="name" {...field("displayName")} />
      </label>
      <label>
        Email
        <input type="email" autoComplete="username" required {...field("email")} />
      </label>
      <label>
        Password (at least 10 characters)
        <input type="password" autoComplete="new-password" minLength={10} required {...field("password")} />
      </label>
      <ErrorBox error={error} />
      <Action type="submit" busy={fetching}>
        Create owner and sign in
      </Action>
    </form>
  );
}
