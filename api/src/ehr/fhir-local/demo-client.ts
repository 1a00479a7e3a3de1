/**
 * The local FHIR server's DEMO client (development, tests and the demo only).
 *
 * A fixed, committed RS384 key pair so that the seeded demo facility (Tampa Bay General Hospital)
 * can talk to api/src/ehr/fhir-local after any restart of either side. It is public knowledge:
 * NEVER register this key with a real EHR, and never give a real facility this key. A real
 * facility generates its own key in the facility settings (POST /api/facilities/{id}/ehr-connection/key).
 */
export const DEMO_CLIENT_ID = 'crisis-local-demo-client';
export const DEMO_KEY_ID = 'crisis-local-demo-key-1';

/** PKCS#8 PEM of the demo private key (dev-only, see above). */
export const DEMO_PRIVATE_KEY_PEM = `-----BEGIN PRIVATE KEY-----
MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQC0wVmg2KmrD2sH
qkizbi4spvtBknKjDShcibBjgP4AuWf0Wr5UQMSUeW1VQQ/iPippFcilZUdT+pir
d9l9LetyQRN3bqhF4QZOCkwNEDB375WVIe2c90jt5FkML3Q83oGXm4Fcp1rehVO/
43QYdbNsbKgnDls1nZ5zEaF9q3Rs0SJ7xDed6hY99wTXm/dS5VHt4ogFTliWUV34
/pD9JjAM9zoquv197yB4dvxeI1UbYOOWxpmg1GXMuNN7Piz+loPx4WQNOoC2HN9p
hSYIXSeX/L55MEQDe3XHtq354Bh1FJRbGTQh1Zjmqa/mkDHIXEPMhf4qaVrNqEbz
/LYnjLOJAgMBAAECggEAOtKXR+RqZrw4QQDV8up+xVI7/w1ZGB3OjjrSt7cBMhwk
K92iBcokDwtrHKz1LdO8OoF3z/djHH23VEnG8dlRP1fVLW9J/J+rzRbFxBSKKWXD
AIrPiF7jEWPX5MLGqY5hjwRwt0XRKQwrgo1TOSiIkNbVbAxce1jFeT36F2sGEuj5
gO+Sn5mjm/6j1nOj7H/GUe4FarKiCYBLduo+tqrmrLNtUxyM/eouChwRSstAiHYU
Kjw/X0gPAivp16DPkNtGMrqAlRZIhuTZZqT/WUjuLdGcWpOhK4RJeCuZgOcuAtjI
cLgJoawbD39Zk+d1wGKs/gIekh15pUKowc+9Q0/D9wKBgQDtyfNZt1Hig4Wryswy
G3lIT1LbqBbwCctsASDJs/K2W50wMcaTodlvyEAf2eqbdYft7HCpFNjGFvA7yfnh
AQtbL3bqXPsvA6qKQVjHVyZTHOJwfSFMkPU4ObJqN3kp9yb0QapwR030FK+3O6cI
KYzsYnNJbvxuZqdbRYsTFuEQjwKBgQDCmTVPPuS+li8RV2HbmdcuWNL1pDu2+gyX
qLVKM2bYZb9xP420yNwCS5DEZD0BpZ/Euu/ySv3xaeZWJeUUFs/6uIdgIeViF2bW
AZiS1MO5lyzJoM9JRaBp7ObaxEKooeqiFHIRWCQwFknHwE5iZ1sLCo/F8rGs1ISU
E2jX+yFWZwKBgQDMd2eyEGjvzkoFk2cL+wXJwLOtvxaiJrntT/cCmaItXg+GnnZz
Aau3a8h/2uDZ9jEAy9t/+DYB9z1xG9aqvDwol2K4WWV/YralFVWiavTAaMjpEx+r
98V0KGCa5sJf7G5pf4Fv9FA6fgMuGrQg16GerXUWgsG6qLhlSiIxMu4qTwKBgFMT
64FwfWGsZl3F635AWHBt9Wpvehrs97FLklIiTbb3AVtM4aeb1OmZ7y0ZCj6IwgPQ
Nx4+y9lj97UxqnIAJzyHySvObMqK6RlWRxfwg7rZAoL2B2jls81lGU2uWjL6JVya
0/P5qEFrUoZX4F78dw7orGa67QW3GP7KpokGqr3jAoGBAOfDxxkODxOhS1ik4Kj7
J1ziogFapQ3l1LVsq3a7UOOUl672le71+TrnhfJVWvN/p6kbcVnUnHjFQfItMd6r
vJVsO9wscBx5NqHBQsB99AsNcAGsHs0fznQhu6rN4f50YlNd2smTrjsrH1aZ1JmO
wUWVTkigsSbj+6uDcDbEMmxb
-----END PRIVATE KEY-----
`;

/** The public half, as the JWKS registered with the local server. */
export const DEMO_PUBLIC_JWKS = {
  keys: [{ kty: 'RSA', n: 'tMFZoNipqw9rB6pIs24uLKb7QZJyow0oXImwY4D-ALln9Fq-VEDElHltVUEP4j4qaRXIpWVHU_qYq3fZfS3rckETd26oReEGTgpMDRAwd--VlSHtnPdI7eRZDC90PN6Bl5uBXKda3oVTv-N0GHWzbGyoJw5bNZ2ecxGhfat0bNEie8Q3neoWPfcE15v3UuVR7eKIBU5YllFd-P6Q_SYwDPc6Krr9fe8geHb8XiNVG2DjlsaZoNRlzLjTez4s_paD8eFkDTqAthzfaYUmCF0nl_y-eTBEA3t1x7at-eAYdRSUWxk0IdWY5qmv5pAxyFxDzIX-KmlazahG8_y2J4yziQ', e: 'AQAB', kid: DEMO_KEY_ID, alg: 'RS384', use: 'sig' }],
};
