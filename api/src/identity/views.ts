/**
 * Server-rendered pages of the identity server: sign-in, sign-in code, messages, sign-out.
 * Plain HTML with inline CSS; no script except the sign-out auto-submit (CSP nonce).
 */
export const PRODUCT_NAME = 'Crisis Placement Platform';

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
  *,*::before,*::after{box-sizing:border-box}
  html,body{margin:0;padding:0}
  body{min-height:100vh;display:flex;align-items:center;justify-content:center;background:#eef2f6;
    font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1f2933;font-size:16px;line-height:1.5}
  main{width:100%;max-width:400px;margin:24px;background:#fff;border-radius:10px;box-shadow:0 4px 24px rgba(15,35,60,.12);padding:32px 32px 28px}
  .brand{display:flex;align-items:center;gap:10px;margin:0 0 24px}
  .logo{width:36px;height:36px;border-radius:8px;background:#1565c0;color:#fff;display:flex;align-items:center;justify-content:center;font-weight:700;font-size:18px}
  .product{font-size:15px;font-weight:600;color:#1565c0;letter-spacing:.2px}
  h1{font-size:22px;font-weight:600;margin:0 0 6px}
  p.lead{margin:0 0 20px;color:#52606d;font-size:14px}
  label{display:block;font-size:14px;font-weight:600;margin:16px 0 6px}
  input[type=email],input[type=password],input[type=text]{width:100%;padding:10px 12px;font-size:16px;border:1px solid #c3cfd9;border-radius:6px;background:#fff;color:inherit}
  input:focus{outline:none;border-color:#1565c0;box-shadow:0 0 0 3px rgba(21,101,192,.2)}
  input.code{letter-spacing:6px;font-size:22px;text-align:center;font-variant-numeric:tabular-nums}
  button{width:100%;margin-top:24px;padding:11px 12px;font-size:16px;font-weight:600;color:#fff;background:#1565c0;border:0;border-radius:6px;cursor:pointer}
  button:hover{background:#0d47a1}
  button.link{width:auto;margin:0;padding:0;background:none;color:#1565c0;font-size:14px;font-weight:500;text-decoration:underline}
  .alert{margin:0 0 8px;padding:10px 12px;border-radius:6px;font-size:14px}
  .alert.error{background:#fdecea;color:#8a1c12;border:1px solid #f5c2bd}
  .alert.info{background:#e8f1fb;color:#0b3c74;border:1px solid #bcd6f3}
  .secondary{margin-top:18px;font-size:14px;color:#52606d;display:flex;justify-content:space-between;align-items:center;gap:12px}
  a{color:#1565c0}
  footer{margin-top:28px;font-size:12px;color:#52606d;text-align:center}
`;

function layout(title: string, content: string, extraHead = ''): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${PRODUCT_NAME}</title>
<style>${STYLE}</style>
${extraHead}
</head>
<body>
<main>
  <div class="brand"><div class="logo" aria-hidden="true">C</div><div class="product">${PRODUCT_NAME}</div></div>
  ${content}
  <footer>&copy; ${new Date().getUTCFullYear()} ${PRODUCT_NAME}</footer>
</main>
</body>
</html>`;
}

function alerts(error?: string | null, info?: string | null): string {
  return (
    (error ? `<div class="alert error" role="alert">${escapeHtml(error)}</div>` : '') +
    (info ? `<div class="alert info" role="status">${escapeHtml(info)}</div>` : '')
  );
}

export interface SignInPageOptions {
  uid: string;
  email?: string | null;
  error?: string | null;
  info?: string | null;
  /** The account is locked: offer the unlock request. */
  locked?: boolean;
}

/** Where a locked user asks the administrators to unlock the account (unlock-request.ts). */
export const UNLOCK_REQUEST_PATH = '/identity/account/unlock-request';

export function signInPage({ uid, email, error, info, locked }: SignInPageOptions): string {
  const action = `/identity/interaction/${encodeURIComponent(uid)}/login`;
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
  <p class="lead">Use your work e-mail and password.</p>
  ${alerts(error, info)}
  ${locked ? `<p><a href="${escapeHtml(`${UNLOCK_REQUEST_PATH}?email=${encodeURIComponent(email ?? '')}`)}" data-testid="request-unlock">Request unlock</a></p>` : ''}
  <form method="post" action="${escapeHtml(action)}" autocomplete="on" novalidate>
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required maxlength="255" value="${escapeHtml(email ?? '')}"${email ? '' : ' autofocus'}>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="250"${email ? ' autofocus' : ''}>
    <button type="submit">Sign in</button>
  </form>
  <p class="secondary"><a href="${escapeHtml(`/identity/interaction/${encodeURIComponent(uid)}/sso`)}" data-testid="sso-link">Sign in with single sign-on</a></p>`,
  );
}

/** Single sign-on, step 1: the e-mail decides the organization whose SAML identity provider is used (saml.ts). */
export function ssoPage({ uid, email, error }: { uid: string; email?: string | null; error?: string | null }): string {
  const base = `/identity/interaction/${encodeURIComponent(uid)}`;
  return layout(
    'Single sign-on',
    `<h1>Sign in with single sign-on</h1>
  <p class="lead">Enter your work e-mail; we send you to your organization’s sign-in page.</p>
  ${alerts(error)}
  <form method="post" action="${escapeHtml(`${base}/sso`)}" autocomplete="on" novalidate>
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required maxlength="255" value="${escapeHtml(email ?? '')}" autofocus>
    <button type="submit">Continue</button>
  </form>
  <p class="secondary"><a href="${escapeHtml(base)}">Sign in with a password</a></p>`,
  );
}

export interface CodePageOptions {
  uid: string;
  /** 'e-mail' or 'phone' */
  destination: 'e-mail' | 'phone';
  /** Masked address, e.g. j•••@example.org */
  hint?: string | null;
  error?: string | null;
  info?: string | null;
  /** She has no MFA method yet: offer the other channel (the one whose code she enters becomes hers). */
  other?: 'email' | 'sms';
}

export function codePage({ uid, destination, hint, error, info, other }: CodePageOptions): string {
  const base = `/identity/interaction/${encodeURIComponent(uid)}`;
  return layout(
    'Enter your code',
    `<h1>Enter your sign-in code</h1>
  <p class="lead">Enter the code we sent to your ${destination}${hint ? ` (${escapeHtml(hint)})` : ''}. It expires in 10 minutes.</p>
  ${alerts(error, info)}
  <form method="post" action="${escapeHtml(`${base}/code`)}" autocomplete="off" novalidate>
    <label for="code">Code</label>
    <input id="code" name="code" type="text" class="code" inputmode="numeric" pattern="[0-9]*" autocomplete="one-time-code" maxlength="6" required autofocus>
    <button type="submit">Verify</button>
  </form>
  <form method="post" action="${escapeHtml(`${base}/resend`)}" class="secondary">
    <span>Didn't get it?</span><button type="submit" class="link">Send a new code</button>
  </form>${
    other
      ? `
  <form method="post" action="${escapeHtml(`${base}/resend`)}" class="secondary" data-testid="mfa-switch">
    <input type="hidden" name="method" value="${other}">
    <span>${other === 'sms' ? 'Prefer your phone?' : 'Prefer e-mail?'} Later codes come the way you choose.</span><button type="submit" class="link">${other === 'sms' ? 'Send it by SMS instead' : 'Send it by e-mail instead'}</button>
  </form>`
      : ''
  }`,
  );
}

export function messagePage(title: string, message: string, link?: { href: string; text: string }): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
  <p class="lead">${escapeHtml(message)}</p>
  ${link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : ''}`,
  );
}

/** The end-session page: oidc-provider's form, submitted at once with logout=yes (no "are you sure"). */
export function signOutPage(form: string, nonce: string): string {
  const withYes = form.replace(/<\/form>\s*$/i, '<input type="hidden" name="logout" value="yes"/></form>');
  return layout(
    'Signing out',
    `<h1>Signing out…</h1>
  <p class="lead">You are being signed out.</p>
  ${withYes}
  <noscript><button type="submit" form="op.logoutForm">Continue</button></noscript>`,
    `<script nonce="${escapeHtml(nonce)}">document.addEventListener('DOMContentLoaded',function(){document.getElementById('op.logoutForm').submit();});</script>`,
  );
}

/** Masks an address for display: jane.doe@example.org → j•••@example.org; +15551234567 → •••4567. */
export function maskDestination(value: string, channel: 'email' | 'sms'): string {
  if (channel === 'email') {
    const [local, domain] = value.split('@');
    return domain ? `${local.slice(0, 1)}•••@${domain}` : '•••';
  }
  const digits = value.replace(/\D/g, '');
  return `•••${digits.slice(-4)}`;
}
