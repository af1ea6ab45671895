import type { FeeTerms } from "./fees";

// What the placement seed draws from: the companies, roles and fee terms a real institute's
// records would show (its random source is app/core/seeded-random.ts).

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export const monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
export const companies = [
  "Infosys",
  "TCS",
  "Wipro",
  "Persistent Systems",
  "Tech Mahindra",
  "Zensar",
  "KPIT",
  "Cognizant",
  "Accenture",
  "Capgemini",
  "LTIMindtree",
  "Bajaj Finserv",
  "Druva",
  "PubMatic",
  "Mindbowser",
];
export const roles = [
  "Junior Developer",
  "Trainee Engineer",
  "UI Designer",
  "QA Engineer",
  "Data Analyst",
  "Support Engineer",
];
const lakh = 100_000 * 100;

export const templates: { id: string; name: string; terms: FeeTerms; pauseRule: string }[] = [
  {
    id: "seed-terms-percent",
    name: "PAP 15 % of fixed CTC",
    terms: {
      ctcThresholdPaise: 3 * lakh,
      fee: { kind: "percent", basisPoints: 1500 },
      capPaise: 2 * lakh,
      instalments: 6,
      placementWindowMonths: 12,
      gstBasisPoints: 1800,
    },
    pauseRule: "Instalments pause while the learner is out of work, on request with proof.",
  },
  {
    id: "seed-terms-fixed",
    name: "PAP fixed ₹1,20,000",
    terms: {
      ctcThresholdPaise: 25 * 10_000 * 100,
      fee: { kind: "fixed", amountPaise: 1_20_000 * 100 },
      capPaise: null,
      instalments: 3,
      placementWindowMonths: 6,
      gstBasisPoints: 1800,
    },
    pauseRule: "Instalments pause while the learner's monthly income is below ₹20,000.",
  },
];
export type SeedTemplate = (typeof templates)[number];
