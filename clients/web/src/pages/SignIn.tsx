// Sign-in, or on a server without accounts, the one-time bootstrap that creates its owner.
// Sign-in is with a password or through an identity provider the operator configured (OpenID
// Connect): the provider sends the browser back to /sign-in/oidc, where the sign-in finishes.
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { accept } from "../api/auth";
import { Action, ErrorBox, Loading, usePageTitle } from "../ui/components";
import { navigate } from "../ui/router";
import { OIDC_RETURN_PATH, forgetOidcFlow, keepOidcFlow, oidcReturn, takeOidcFlow } from "./oidcReturn";

const BootstrapRequiredQuery = graphql(`
  query BootstrapRequired {
    bootstrapRequired
    signInProviders {
      id
      name
    }
  }
`);

const BeginOidcSignInMutation = graphql(`
  mutation BeginOidcSignIn($provider: String!, $redirectUri: String!) {
    beginOidcSignIn(provider: $provider, redirectUri: $redirectUri) {
      authorizationUrl
      flow
    }
  }
`);

const CompleteOidcSignInMutation = graphql(`
  mutation CompleteOidcSignIn($flow: String!, $code: String!, $state: String!, $issuer: String, $deviceName: String) {
    completeOidcSignIn(flow: $flow, code: $code, state: $state, issuer: $issuer, deviceName: $deviceName) {
      ...AuthTokens
    }
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
  if (window.location.pathname === OIDC_RETURN_PATH) {
    return (
      <main className="signin">
        <h1>Agent Control Center</h1>
        <FinishOidcSignIn />
      </main>
    );
  }
  return <SignInChoices />;
}

function SignInChoices() {
  const [{ data, fetching, error }] = useQuery({ query: BootstrapRequiredQuery, requestPolicy: "network-only" });
  if (fetching && !data) return <Loading what="the server" />;
  return (
    <main className="signin">
      <h1>Agent Control Center</h1>
      <ErrorBox error={error} />
      {data?.bootstrapRequired ? (
        <Bootstrap />
      ) : (
        <>
          <Login />
          <Providers providers={data?.signInProviders ?? []} />
        </>
      )}
    </main>
  );
}

/** "Sign in with …" for each identity provider: off to the provider, which sends the browser back. */
function Providers({ providers }: { providers: { id: string; name: string }[] }) {
  const [{ fetching, error }, begin] = useMutation(BeginOidcSignInMutation);
  const [going, setGoing] = useState<string | null>(null);
  if (providers.length === 0) return null;
  const go = async (provider: string) => {
    setGoing(provider);
    const result = await begin({ provider, redirectUri: window.location.origin + OIDC_RETURN_PATH });
    if (!result.data) return setGoing(null);
    keepOidcFlow(result.data.beginOidcSignIn.flow);
    window.location.assign(result.data.beginOidcSignIn.authorizationUrl);
  };
  return (
    <section className="card stack" aria-label="Sign in with an identity provider">
      {providers.map((provider) => (
        <Action key={provider.id} busy={fetching && going === provider.id} onClick={() => void go(provider.id)}>
          Sign in with {provider.name}
        </Action>
      ))}
      <ErrorBox error={error} />
    </section>
  );
}

/** Back from the provider: finish the sign-in this tab began, once. */
function FinishOidcSignIn() {
  usePageTitle("Signing in");
  const [{ error }, complete] = useMutation(CompleteOidcSignInMutation);
  const [refused, setRefused] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const back = oidcReturn(window.location.search, takeOidcFlow());
    if (back.kind === "refused") return setRefused(back.reason);
    void complete({ ...back.callback, deviceName: deviceName() }).then((result) => {
      if (!result.data) return;
      navigate("/", { replace: true });
      accept(result.data.completeOidcSignIn);
    });
  }, [complete]);
  const again = () => {
    forgetOidcFlow();
    navigate("/", { replace: true });
    window.location.reload();
  };
  return (
    <section className="card stack" aria-label="Signing in">
      {refused || error ? (
        <>
          <h2>Sign-in did not finish</h2>
          {refused && (
            <p className="error" role="alert">
              {refused}
            </p>
          )}
          <ErrorBox error={error} />
          <Action onClick={again}>Back to sign-in</Action>
        </>
      ) : (
        <Loading what="your sign-in" />
      )}
    </section>
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
