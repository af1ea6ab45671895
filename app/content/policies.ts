/**
 * The policy pages as a fresh install shows them, in the editor's plain-text markup
 * (app/site/sections/policy-text.ts): `## ` headings, `- ` lists, `**bold**`, `[text](link)`;
 * {name}, {email}, {phone} and {address} are the brand's details, and a line
 * `{stored-data-table}` is the table of what the database stores.
 */

export const privacyPolicy = {
  updated: "23 November 2026",
  body: `This policy explains how {name} ("we", "us"), of {address}, collects and uses personal data when you visit this website, create a learner account, join a course or internship, or work with us on a software project.

## What we collect

- Account details you give us when you sign up: your username, email address, 10-digit phone number, the course you are interested in and your gender.
- Material you add to your dashboard: your profile photo, your résumé and the links to the tasks you submit.
- Records we create about your training: notices, tasks, certificates and, where you earn one, your offer letter.
- Technical data needed to run the site securely: server logs with your IP address, browser type and the pages requested, kept for up to 30 days.

## Why we use it

- To provide your learner dashboard, courses and internship, and to issue certificates.
- To contact you about your batch, your tasks and placement opportunities you have asked for.
- To keep the site and your account secure and to meet our legal and accounting obligations.

We do not sell your personal data. With your consent we share your résumé and training record with hiring companies for placement. Payments are handled by our payment provider, which receives only the details it needs to process them; we never see or store your card or UPI credentials.

## Cookies

We use only the cookies needed to keep you signed in. We use no advertising or cross-site tracking cookies, and this site loads no fonts, scripts or images from other websites.

## How long we keep it

We keep your account data while your account is open and for up to 3 years after your last course, so that we can verify certificates for employers. Financial records are kept for as long as Indian tax law requires. You can ask us to delete your account at any time.

## Children

Our courses are meant for people aged 18 or over; younger learners may enrol only with the consent of a parent or guardian. We do not knowingly collect any personal data from children under 13. If you believe a child under 13 has given us personal data, write to us and we will delete it.

## What we store, in detail

{stored-data-table}

## Your rights

You may see the personal data we hold about you, correct it, or delete it, and you may withdraw consent you have given:

- **See it:** "Download my data" on your Settings page gives you a ZIP file with everything listed above that is about you, your files, and a README explaining each part.
- **Correct it:** change your phone and course under "Your details" on your Settings page; for anything else, write to us.
- **Delete it:** "Delete my account" on your Settings page signs you out everywhere and erases your account 7 days later (signing in before then cancels it). We keep only the record of what staff did, with your name replaced by "Deleted learner".
- **Enquiries:** an enquiry sent with the form on this site is not tied to an account, so it is not in your data download and is not deleted with your account. Write to us from the email or phone you gave and we will show it to you or delete it.
- **Choose your emails:** under "Email notifications" on your Settings page, or with the link at the end of every email.

For anything else, write to [{email}](mailto:{email}); we answer within 30 days.

## Security

Passwords are stored only as salted hashes, all traffic to this site is encrypted in transit, and access to learner records is limited to staff who need it.

## Changes and contact

We will post any change to this policy on this page with a new date. Questions go to {email} or {phone}. See also our [Terms and Conditions](/TermsAndConditions) and [Refund Policy](/RefundPolicy).`,
};

export const refundPolicy = {
  updated: "1 January 2025",
  body: `We want you to be sure about your course. This policy explains when a fee paid to {name} can be refunded and how long it takes.

## When you can ask for a refund

- You must send your refund request **within 7 days** of the date of payment.
- A course is **not refundable once you have accessed more than 20%** of it (sessions attended, recordings watched or tasks received, whichever is greater).
- If we cancel or postpone a batch and you do not wish to join the next one, we refund the full fee regardless of these limits.

## How to ask

Email [{email}](mailto:{email}) from the address you registered with, giving your name, course, date of payment and the payment reference. You do not need to give a reason, but feedback helps us improve.

## What happens next

- We review your request and reply with our decision within **3–5 business days**.
- Once approved, the refund is credited to the original payment method within **7–10 business days**. Your bank may take longer to show it.
- Payment gateway charges, if any, are not refundable unless we cancelled the batch.

## Pay-after-placement courses

For pay-after-placement courses the fee falls due after you accept a job offer. A payment made for such a course is covered by the same 7-day and 20% rules from the date it is made.

## Questions

Call us on {phone} or write to {email}. See also our [Terms and Conditions](/TermsAndConditions).`,
};

export const termsAndConditions = {
  updated: "1 January 2025",
  body: `These terms apply when you use this website, create a learner account or enrol in a course or internship with {name}, {address}. By creating an account you accept them.

## Who may enrol

You must be at least **18 years old**, or have the **consent of a parent or guardian**, to create an account or enrol. We do not collect personal data from children under 13, and such children may not create an account.

## Your account

- Give accurate details, including a working email address and a 10-digit phone number.
- Keep your password secret; you are responsible for what is done with your account.
- Upload only your own résumé, photo and work, and nothing unlawful or offensive.

## Courses, fees and payment

- Course fees and durations are those shown on our home page when you register. Register Now takes you to our payment provider.
- For pay-after-placement courses, the fee becomes due once you accept a job offer, whether or not the offer came through our placement assistance.
- Refunds follow our [Refund Policy](/RefundPolicy): a request within 7 days of payment, for a course not accessed beyond 20%, reviewed in 3–5 business days and credited in 7–10 business days.

## Certificates and offer letters

Certificates are issued when you complete the required tasks. Internship offer letters depend on your performance and are not guaranteed. We assist with placement but cannot promise a job.

## Conduct

Treat trainers, staff and other learners with respect. We may suspend an account for cheating, harassment or misuse of the platform, after telling you why.

## Intellectual property

Course material is ours and is for your personal learning only. The code you write in your own projects remains yours; work done on client projects during an internship belongs to the client.

## Privacy

How we handle your personal data is described in our [Privacy Policy](/PrivacyPolicy).

## Liability and law

We provide the website and courses with reasonable care and skill. To the extent the law allows, our liability is limited to the fees you paid us. These terms are governed by the laws of India, and the courts of Pune, Maharashtra have jurisdiction.

## Contact

Questions about these terms: [{email}](mailto:{email}) or {phone}.`,
};
