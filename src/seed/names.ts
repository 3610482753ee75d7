/** Word lists the synthetic workspaces are made of (an Indian dairy and FMCG distribution business). */

export const FIRST_NAMES = [
  'Aarav', 'Aditi', 'Akash', 'Ananya', 'Anil', 'Anita', 'Arjun', 'Asha', 'Deepa', 'Deepak',
  'Divya', 'Ganesh', 'Gita', 'Harish', 'Isha', 'Kavya', 'Kiran', 'Lakshmi', 'Mahesh', 'Meena',
  'Mohan', 'Neha', 'Nikhil', 'Pooja', 'Pradeep', 'Priya', 'Rahul', 'Rajesh', 'Ramesh', 'Ravi',
  'Rekha', 'Rohit', 'Sanjay', 'Sangeeta', 'Shreya', 'Sneha', 'Suresh', 'Sunita', 'Tanvi', 'Uma',
  'Varun', 'Vijay', 'Vikram', 'Vinod', 'Yash', 'Zoya', 'Farhan', 'Imran', 'Joseph', 'Mary',
] as const;

export const LAST_NAMES = [
  'Agarwal', 'Bhat', 'Chauhan', 'Das', 'Desai', 'Gowda', 'Gupta', 'Iyer', 'Jain', 'Joshi',
  'Kapoor', 'Khan', 'Kulkarni', 'Kumar', 'Menon', 'Mishra', 'Nair', 'Naidu', 'Patel', 'Patil',
  'Pillai', 'Rao', 'Reddy', 'Saxena', 'Shah', 'Sharma', 'Shetty', 'Singh', 'Sinha', 'Thomas',
  'Varma', 'Yadav',
] as const;

/** Stems of organization names, combined with ORGANIZATION_KINDS. */
export const ORGANIZATION_STEMS = [
  'Amrut', 'Gokul', 'Nandini', 'Shree Krishna', 'Kamadhenu', 'Sagar', 'Vijaya', 'Aavin', 'Gopal',
  'Sudha', 'Parag', 'Heritage', 'Milky Way', 'Sunrise', 'Green Valley', 'Ganga', 'Himalaya', 'Saraswati',
] as const;

export const ORGANIZATION_KINDS = ['Dairy', 'Milk Products', 'Dairy Foods', 'Agro Foods', 'Distributors', 'Dairy Cooperative'] as const;

/** Towns with their state and coordinates (outlets are tagged near them). */
export const TOWNS: ReadonlyArray<{ name: string; state: string; lat: number; lng: number }> = [
  { name: 'Mysuru', state: 'Karnataka', lat: 12.2958, lng: 76.6394 },
  { name: 'Mandya', state: 'Karnataka', lat: 12.5218, lng: 76.8951 },
  { name: 'Hassan', state: 'Karnataka', lat: 13.0072, lng: 76.0962 },
  { name: 'Tumakuru', state: 'Karnataka', lat: 13.3379, lng: 77.1173 },
  { name: 'Davanagere', state: 'Karnataka', lat: 14.4644, lng: 75.9218 },
  { name: 'Hubballi', state: 'Karnataka', lat: 15.3647, lng: 75.124 },
  { name: 'Belagavi', state: 'Karnataka', lat: 15.8497, lng: 74.4977 },
  { name: 'Kolhapur', state: 'Maharashtra', lat: 16.705, lng: 74.2433 },
  { name: 'Sangli', state: 'Maharashtra', lat: 16.8524, lng: 74.5815 },
  { name: 'Satara', state: 'Maharashtra', lat: 17.6805, lng: 74.0183 },
  { name: 'Pune', state: 'Maharashtra', lat: 18.5204, lng: 73.8567 },
  { name: 'Nashik', state: 'Maharashtra', lat: 19.9975, lng: 73.7898 },
  { name: 'Anand', state: 'Gujarat', lat: 22.5645, lng: 72.9289 },
  { name: 'Vadodara', state: 'Gujarat', lat: 22.3072, lng: 73.1812 },
  { name: 'Rajkot', state: 'Gujarat', lat: 22.3039, lng: 70.8022 },
  { name: 'Surat', state: 'Gujarat', lat: 21.1702, lng: 72.8311 },
  { name: 'Coimbatore', state: 'Tamil Nadu', lat: 11.0168, lng: 76.9558 },
  { name: 'Erode', state: 'Tamil Nadu', lat: 11.341, lng: 77.7172 },
  { name: 'Salem', state: 'Tamil Nadu', lat: 11.6643, lng: 78.146 },
  { name: 'Madurai', state: 'Tamil Nadu', lat: 9.9252, lng: 78.1198 },
  { name: 'Guntur', state: 'Andhra Pradesh', lat: 16.3067, lng: 80.4365 },
  { name: 'Vijayawada', state: 'Andhra Pradesh', lat: 16.5062, lng: 80.648 },
  { name: 'Karnal', state: 'Haryana', lat: 29.6857, lng: 76.9905 },
  { name: 'Ludhiana', state: 'Punjab', lat: 30.901, lng: 75.8573 },
];

export const ROUTE_NAMES = [
  'Market Road', 'Station Road', 'MG Road', 'Bus Stand Circle', 'Industrial Area', 'Old Town',
  'Ring Road', 'College Road', 'Temple Street', 'Hospital Road', 'Housing Board Colony', 'APMC Yard',
] as const;

export const PRODUCTION_UNIT_KINDS = ['Main Plant', 'Chilling Centre', 'Depot', 'Packing Station'] as const;

export const STORE_KINDS = ['Stores', 'Traders', 'Milk Parlour', 'General Store', 'Agencies', 'Kirana', 'Super Market', 'Bakery', 'Sweets', 'Enterprises'] as const;

export const OUTLET_KINDS = ['Kirana', 'Milk Booth', 'Provision Store', 'Tea Stall', 'Bakery', 'Mini Mart', 'Hotel', 'Canteen'] as const;

/** The roles of a seeded workspace: signup's four, then further kinds of employee. */
export const EXTRA_EMPLOYEE_ROLES: ReadonlyArray<{ name: string; description: string }> = [
  { name: 'Sales Executive', description: 'Visits outlets and books orders on a route' },
  { name: 'Delivery Executive', description: 'Delivers orders and collects payments' },
  { name: 'Accountant', description: 'Records collections and reconciles payments' },
  { name: 'Area Manager', description: 'Oversees the routes of several towns' },
];

/** A product class of the catalogue: its unit, price per unit, products and pack sizes. */
export interface ClassTemplate {
  name: string;
  unit: string;
  /** Selling price of one unit (litre, kg …) in rupees, before the product's own factor. */
  pricePerUnit: number;
  hsn: string;
  color: string;
  products: readonly string[];
  /** Pack sizes: label, unit_quantity (in the class's unit), pieces per container. */
  packs: ReadonlyArray<{ label: string; unitQuantity: number; perContainer: number }>;
}

export const CLASS_TEMPLATES: readonly ClassTemplate[] = [
  {
    name: 'Milk', unit: 'litre', pricePerUnit: 56, hsn: '0401', color: '#1F77B4',
    products: ['Toned Milk', 'Full Cream Milk', 'Double Toned Milk', 'Cow Milk', 'Buffalo Milk', 'A2 Cow Milk', 'Standardised Milk'],
    packs: [{ label: '200 ml', unitQuantity: 0.2, perContainer: 50 }, { label: '500 ml', unitQuantity: 0.5, perContainer: 24 }, { label: '1 l', unitQuantity: 1, perContainer: 12 }, { label: '6 l', unitQuantity: 6, perContainer: 1 }],
  },
  {
    name: 'Curd', unit: 'kg', pricePerUnit: 80, hsn: '0403', color: '#FFFFFF',
    products: ['Curd', 'Thick Curd', 'Probiotic Dahi', 'Mishti Doi', 'Greek Yogurt'],
    packs: [{ label: '200 g', unitQuantity: 0.2, perContainer: 40 }, { label: '400 g', unitQuantity: 0.4, perContainer: 24 }, { label: '1 kg', unitQuantity: 1, perContainer: 12 }, { label: '5 kg', unitQuantity: 5, perContainer: 1 }],
  },
  {
    name: 'Butter', unit: 'kg', pricePerUnit: 520, hsn: '0405', color: '#F2C14E',
    products: ['Salted Butter', 'Unsalted Butter', 'White Butter', 'Garlic Butter'],
    packs: [{ label: '100 g', unitQuantity: 0.1, perContainer: 60 }, { label: '500 g', unitQuantity: 0.5, perContainer: 20 }],
  },
  {
    name: 'Ghee', unit: 'litre', pricePerUnit: 650, hsn: '0405', color: '#E8A317',
    products: ['Cow Ghee', 'Buffalo Ghee', 'Danedar Ghee'],
    packs: [{ label: '200 ml', unitQuantity: 0.2, perContainer: 48 }, { label: '500 ml', unitQuantity: 0.5, perContainer: 24 }, { label: '1 l', unitQuantity: 1, perContainer: 12 }, { label: '15 l tin', unitQuantity: 15, perContainer: 1 }],
  },
  {
    name: 'Paneer', unit: 'kg', pricePerUnit: 400, hsn: '0406', color: '#F5F5DC',
    products: ['Fresh Paneer', 'Malai Paneer', 'Low-fat Paneer'],
    packs: [{ label: '200 g', unitQuantity: 0.2, perContainer: 30 }, { label: '1 kg', unitQuantity: 1, perContainer: 10 }],
  },
  {
    name: 'Buttermilk', unit: 'litre', pricePerUnit: 40, hsn: '0403', color: '#A8D5BA',
    products: ['Masala Chaas', 'Plain Chaas', 'Spiced Buttermilk'],
    packs: [{ label: '200 ml', unitQuantity: 0.2, perContainer: 50 }, { label: '500 ml', unitQuantity: 0.5, perContainer: 24 }, { label: '1 l', unitQuantity: 1, perContainer: 12 }],
  },
  {
    name: 'Lassi', unit: 'litre', pricePerUnit: 125, hsn: '0403', color: '#FF9F1C',
    products: ['Sweet Lassi', 'Mango Lassi', 'Rose Lassi'],
    packs: [{ label: '200 ml', unitQuantity: 0.2, perContainer: 30 }, { label: '1 l', unitQuantity: 1, perContainer: 12 }],
  },
  {
    name: 'Flavoured Milk', unit: 'litre', pricePerUnit: 150, hsn: '0402', color: '#9B5DE5',
    products: ['Badam Milk', 'Kesar Milk', 'Chocolate Milk', 'Strawberry Milk'],
    packs: [{ label: '180 ml', unitQuantity: 0.18, perContainer: 30 }, { label: '200 ml', unitQuantity: 0.2, perContainer: 30 }],
  },
  {
    name: 'Ice Cream', unit: 'litre', pricePerUnit: 250, hsn: '2105', color: '#F15BB5',
    products: ['Vanilla Ice Cream', 'Chocolate Ice Cream', 'Butterscotch Ice Cream', 'Kesar Pista Ice Cream', 'Mango Ice Cream'],
    packs: [{ label: '100 ml cup', unitQuantity: 0.1, perContainer: 48 }, { label: '700 ml', unitQuantity: 0.7, perContainer: 8 }, { label: '4 l tub', unitQuantity: 4, perContainer: 1 }],
  },
  {
    name: 'Cheese', unit: 'kg', pricePerUnit: 600, hsn: '0406', color: '#FEE440',
    products: ['Cheese Slices', 'Mozzarella', 'Processed Cheese Block', 'Cheese Spread'],
    packs: [{ label: '200 g', unitQuantity: 0.2, perContainer: 24 }, { label: '400 g', unitQuantity: 0.4, perContainer: 12 }, { label: '1 kg', unitQuantity: 1, perContainer: 6 }],
  },
  {
    name: 'Sweets', unit: 'kg', pricePerUnit: 400, hsn: '1704', color: '#C1121F',
    products: ['Peda', 'Rasgulla', 'Gulab Jamun', 'Kalakand', 'Shrikhand'],
    packs: [{ label: '250 g', unitQuantity: 0.25, perContainer: 20 }, { label: '500 g', unitQuantity: 0.5, perContainer: 12 }, { label: '1 kg', unitQuantity: 1, perContainer: 6 }],
  },
  {
    name: 'Milk Powder', unit: 'kg', pricePerUnit: 380, hsn: '0402', color: '#00BBF9',
    products: ['Skimmed Milk Powder', 'Dairy Whitener', 'Whole Milk Powder'],
    packs: [{ label: '500 g', unitQuantity: 0.5, perContainer: 20 }, { label: '1 kg', unitQuantity: 1, perContainer: 10 }, { label: '25 kg bag', unitQuantity: 25, perContainer: 1 }],
  },
];

/** Indian GST state codes of the states above (the first two characters of a GSTIN). */
export const GST_STATE_CODES: Record<string, string> = {
  Karnataka: '29',
  Maharashtra: '27',
  Gujarat: '24',
  'Tamil Nadu': '33',
  'Andhra Pradesh': '37',
  Haryana: '06',
  Punjab: '03',
};
